# issue 16's one device command: Nsight Compute on the naive matmul and the two matrix-add mappings,
# the block-size sweep's occupancy limits, and vector add end to end from pageable and pinned memory.
T=.gpu/base/bin/threadlab
echo "date: $(date -u '+%Y-%m-%d %H:%M:%S UTC')"
nvidia-smi --query-gpu=name,driver_version,memory.total,clocks.max.sm,clocks.max.mem --format=csv
ncu --version | tail -1
nvcc --version | tail -2
$T info | head -40
M=gpu__time_duration.sum,dram__bytes_read.sum,dram__bytes_write.sum,lts__t_sectors_srcunit_tex_op_read.sum,lts__t_sectors_srcunit_tex_op_read_lookup_hit.sum,lts__t_requests_srcunit_tex_op_read.sum,l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum,l1tex__t_requests_pipe_lsu_mem_global_op_ld.sum,l1tex__t_sectors_pipe_lsu_mem_global_op_ld_lookup_hit.sum,l1tex__t_sector_hit_rate.pct,lts__t_sector_hit_rate.pct,device__attribute_l2_cache_size
echo "=== matmul naive 2048^3"
set -x
ncu -k regex:matmul_naive -c 1 --metrics $M $T run --lesson matmul --m 2048 --n 2048 --k 2048 --kernel naive --repeats 1
for map in x_to_col x_to_row; do
  ncu -k regex:matrix_add_$map -c 1 --metrics $M $T run --lesson 2d-blocks --rows 4096 --cols 4096 --block 32,8 --mapping $map --repeats 1
done
$T run --lesson 2d-blocks --rows 4096 --cols 4096 --block 32,8 --repeats 20
$T run --lesson 2d-blocks --rows 4096 --cols 4096 --block 16,16 --repeats 20
O=gpu__time_duration.sum,launch__occupancy_limit_blocks,launch__occupancy_limit_warps,launch__occupancy_limit_registers,launch__occupancy_limit_shared_mem,sm__maximum_warps_per_active_cycle_pct,sm__warps_active.avg.pct_of_peak_sustained_active,device__attribute_max_blocks_per_multiprocessor,device__attribute_max_threads_per_multiprocessor,device__attribute_multiprocessor_count
for b in 32 64 128 256 1024; do
  $T run --lesson thread-hierarchy --n 2^22 --block $b --grid_stride 0 --repeats 20
  ncu -k regex:hierarchy_one_per_thread -c 1 --metrics $O $T run --lesson thread-hierarchy --n 2^22 --block $b --grid_stride 0 --repeats 1 | grep -E "^ +(launch|sm|gpu|device)__|hierarchy"
done
$T run --lesson vector-add --n 2^24 --repeats 10
set +x
nvcc -O2 -arch=sm_90 -o /tmp/pinned .gpu/h16/pinned.cu && /tmp/pinned
