// Compiles the test programs' precompiled header once (tests/CMakeLists.txt).
