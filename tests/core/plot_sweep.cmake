# Tests of the plot core, the sweep runner, and the plot widget (headless ImGui). Included from
# tests/CMakeLists.txt, so paths are relative to this file, not to the including directory.
add_executable(threadlab_plot_sweep_tests
  ${CMAKE_CURRENT_LIST_DIR}/plot/test_axis.cpp
  ${CMAKE_CURRENT_LIST_DIR}/plot/test_crossover.cpp
  ${CMAKE_CURRENT_LIST_DIR}/plot/test_plot_export.cpp
  ${CMAKE_CURRENT_LIST_DIR}/plot/test_plot_helpers.cpp
  ${CMAKE_CURRENT_LIST_DIR}/plot/test_plot_quantity.cpp
  ${CMAKE_CURRENT_LIST_DIR}/plot/test_tick_format.cpp
  ${CMAKE_CURRENT_LIST_DIR}/plot/test_view_transform.cpp
  ${CMAKE_CURRENT_LIST_DIR}/sweep/test_size_sweep.cpp
  ${CMAKE_CURRENT_LIST_DIR}/sweep/test_block_sweep.cpp
  ${CMAKE_CURRENT_LIST_DIR}/sweep/test_sweep_runner.cpp)
target_link_libraries(threadlab_plot_sweep_tests PRIVATE GTest::gtest_main threadlab_core
                      nlohmann_json::nlohmann_json threadlab_warnings)
gtest_discover_tests(threadlab_plot_sweep_tests PROPERTIES LABELS core DISCOVERY_TIMEOUT 60)

# The widget test needs ImGui but no window or GL, so it runs with the core tests.
if(TARGET threadlab_ui_widgets)
  add_executable(threadlab_plot_widget_tests
    ${CMAKE_CURRENT_LIST_DIR}/plot/test_plot_widget_headless.cpp)
  target_link_libraries(threadlab_plot_widget_tests PRIVATE GTest::gtest_main threadlab_ui_widgets
                        threadlab_warnings)
  gtest_discover_tests(threadlab_plot_widget_tests PROPERTIES LABELS core DISCOVERY_TIMEOUT 60)
endif()
