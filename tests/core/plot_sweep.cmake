# Tests of the plot core and the sweep runner; the plot widget, which draws with ImGui, is tested in
# tests/gui. Included from tests/CMakeLists.txt, so paths are relative to this file, not to the
# including directory.
if(THREADLAB_SANITIZED_SUITES)
  add_executable(threadlab_plot_sweep_tests
    ${CMAKE_CURRENT_LIST_DIR}/plot/test_axis.cpp
    ${CMAKE_CURRENT_LIST_DIR}/plot/test_crossover.cpp
    ${CMAKE_CURRENT_LIST_DIR}/plot/test_plot_export.cpp
    ${CMAKE_CURRENT_LIST_DIR}/plot/test_plot_helpers.cpp
    ${CMAKE_CURRENT_LIST_DIR}/plot/test_plot_layout.cpp
    ${CMAKE_CURRENT_LIST_DIR}/plot/test_plot_quantity.cpp
    ${CMAKE_CURRENT_LIST_DIR}/plot/test_roofline.cpp
    ${CMAKE_CURRENT_LIST_DIR}/plot/test_tick_format.cpp
    ${CMAKE_CURRENT_LIST_DIR}/plot/test_view_transform.cpp
    ${CMAKE_CURRENT_LIST_DIR}/sweep/test_size_sweep.cpp
    ${CMAKE_CURRENT_LIST_DIR}/sweep/test_block_sweep.cpp
    ${CMAKE_CURRENT_LIST_DIR}/sweep/test_sweep_runner.cpp)
  target_link_libraries(threadlab_plot_sweep_tests PRIVATE GTest::gtest_main threadlab_core
                        nlohmann_json::nlohmann_json threadlab_warnings)
  gtest_discover_tests(threadlab_plot_sweep_tests PROPERTIES LABELS core-asan DISCOVERY_TIMEOUT 60)
endif()
