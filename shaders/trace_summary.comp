// Counts over one bound range of trace records: elements nobody wrote, elements written more than
// once, and the largest grid-stride iteration. Each invocation strides over the range, folds into
// shared memory, and one invocation per group adds the group's result to the totals.

layout(local_size_x = 256) in;

layout(std430, binding = 0) readonly buffer TraceRecords { uvec4 records[]; };
layout(std430, binding = 1) buffer Totals {
  uint unwritten;
  uint written_more;
  uint max_iteration;
};

uniform uint u_count;

shared uint group_unwritten;
shared uint group_written_more;
shared uint group_max_iteration;

void main() {
  if (gl_LocalInvocationIndex == 0u) {
    group_unwritten = 0u;
    group_written_more = 0u;
    group_max_iteration = 0u;
  }
  memoryBarrierShared();
  barrier();

  uint my_unwritten = 0u;
  uint my_written_more = 0u;
  uint my_max_iteration = 0u;
  uint stride = gl_NumWorkGroups.x * gl_WorkGroupSize.x;
  for (uint i = gl_GlobalInvocationID.x; i < u_count; i += stride) {
    uvec4 record = records[i];
    if (record.w == 0u) {
      ++my_unwritten;
    } else {
      if (record.w > 1u) ++my_written_more;
      my_max_iteration = max(my_max_iteration, record.z);
    }
  }
  atomicAdd(group_unwritten, my_unwritten);
  atomicAdd(group_written_more, my_written_more);
  atomicMax(group_max_iteration, my_max_iteration);
  memoryBarrierShared();
  barrier();

  if (gl_LocalInvocationIndex == 0u) {
    atomicAdd(unwritten, group_unwritten);
    atomicAdd(written_more, group_written_more);
    atomicMax(max_iteration, group_max_iteration);
  }
}
