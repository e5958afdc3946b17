# The two entry points of the README. Both install what is missing (Debian packages only),
# configure a Release build with Ninja into build/, and build.
BUILD_DIR ?= build
JOBS ?= $(shell nproc)
CMAKE_FLAGS ?=

.PHONY: run test build python deps configure bench clean test-sanitize test-sanitize-fast fuzz install

deps:
	@./scripts/install-deps.sh

configure: deps
	@if [ ! -f $(BUILD_DIR)/build.ninja ]; then \
	  cmake -S . -B $(BUILD_DIR) -G Ninja -DCMAKE_BUILD_TYPE=Release $(CMAKE_FLAGS) >/dev/null; \
	fi

# The CLI: all the default scene needs.
build: configure
	@cmake --build $(BUILD_DIR) --target softsim -j $(JOBS)

run: build
	@$(BUILD_DIR)/softsim run --out output/default

# The Python module (docs/python.md); `make test` builds it too.
python: configure
	@cmake --build $(BUILD_DIR) --target _softsim -j $(JOBS)

# Everything the tests need (the library, the CLI, the test programs, the Python module), then ctest.
test: configure
	@cmake --build $(BUILD_DIR) -j $(JOBS)
	@cd $(BUILD_DIR) && ctest --output-on-failure -j $(JOBS) --timeout 900

# The benchmark programs (build/bench/bench_*), which the default build leaves out.
bench: configure
	@cmake --build $(BUILD_DIR) --target benchmarks -j $(JOBS)

clean:
	rm -rf $(BUILD_DIR)

# The library, the CLI, the public headers and the CMake package (find_package(softsim)) under PREFIX.
PREFIX ?= /usr/local
install: build
	@cmake --build $(BUILD_DIR) --target softsim_lib -j $(JOBS)
	@cmake --install $(BUILD_DIR) --prefix $(PREFIX)

# The whole test suite under AddressSanitizer + UndefinedBehaviorSanitizer (gcc is fine), in its
# own build directory; any sanitizer report fails the test that triggered it. -O1 -g1 (line tables
# are enough for the reports) instead of -O2 -g, to shorten the build.
SANITIZE_DIR ?= build-sanitize
SANITIZE_FLAGS = -fsanitize=address,undefined -fno-sanitize-recover=undefined -fno-omit-frame-pointer
test-sanitize: deps
	@if [ ! -f $(SANITIZE_DIR)/build.ninja ]; then \
	  cmake -S . -B $(SANITIZE_DIR) -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo -DSOFTSIM_BUILD_BENCH=OFF -DSOFTSIM_BUILD_PYTHON=OFF \
	    -DCMAKE_CXX_FLAGS_RELWITHDEBINFO="-O1 -g1 -DNDEBUG" \
	    -DCMAKE_CXX_FLAGS="$(SANITIZE_FLAGS)" -DCMAKE_EXE_LINKER_FLAGS="$(SANITIZE_FLAGS)" \
	    $(CMAKE_FLAGS) >/dev/null; \
	fi
	@cmake --build $(SANITIZE_DIR) -j $(JOBS)
	@cd $(SANITIZE_DIR) && ASAN_OPTIONS=detect_leaks=1 \
	  UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1 \
	  ctest --output-on-failure -j $(JOBS) --timeout 1800

# The fast part of test-sanitize, for CI: the library and the test programs of the modules that
# read and check input (core, io, mesh, scene, volume) built at -O0 (the quickest build; these
# tests are light), under the same sanitizers.
SANITIZE_FAST_DIR ?= build-sanitize-fast
SANITIZE_FAST_MODULES = core io mesh meshing scene volume
test-sanitize-fast: deps
	@if [ ! -f $(SANITIZE_FAST_DIR)/build.ninja ]; then \
	  cmake -S . -B $(SANITIZE_FAST_DIR) -G Ninja -DCMAKE_BUILD_TYPE=Debug -DSOFTSIM_BUILD_BENCH=OFF -DSOFTSIM_BUILD_PYTHON=OFF \
	    -DCMAKE_CXX_FLAGS_DEBUG="-O0" \
	    -DCMAKE_CXX_FLAGS="$(SANITIZE_FLAGS)" -DCMAKE_EXE_LINKER_FLAGS="$(SANITIZE_FLAGS)" \
	    $(CMAKE_FLAGS) >/dev/null; \
	fi
	@cmake --build $(SANITIZE_FAST_DIR) -j $(JOBS) --target $(addprefix test_,$(SANITIZE_FAST_MODULES))
	@cd $(SANITIZE_FAST_DIR) && ASAN_OPTIONS=detect_leaks=1 \
	  UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1 \
	  ctest --output-on-failure -j $(JOBS) --timeout 1800 -L '^($(subst $(eval) ,|,$(SANITIZE_FAST_MODULES)))$$'

# Coverage-guided fuzzing of the input readers with libFuzzer (clang), ASan and UBSan
# (docs/fuzzing.md): every target runs FUZZ_SECONDS on a scratch copy of its seeds in fuzz/corpus/.
# FUZZ_TARGETS (e.g. "read_msh_fuzz read_obj_fuzz") runs only those.
FUZZ_DIR ?= build-fuzz
FUZZ_SECONDS ?= 60
FUZZ_TARGETS ?=
fuzz: deps
	@if [ ! -f $(FUZZ_DIR)/build.ninja ]; then \
	  cmake -S . -B $(FUZZ_DIR) -G Ninja -DCMAKE_CXX_COMPILER=clang++ -DCMAKE_BUILD_TYPE=Debug \
	    -DCMAKE_CXX_FLAGS_DEBUG="-O1 -g" -DSOFTSIM_FUZZ=ON -DSOFTSIM_BUILD_TESTS=OFF -DSOFTSIM_BUILD_BENCH=OFF -DSOFTSIM_BUILD_PYTHON=OFF \
	    $(CMAKE_FLAGS) >/dev/null; \
	fi
	@cmake --build $(FUZZ_DIR) --target fuzz_targets -j $(JOBS)
	@fuzz/run_fuzz.sh $(FUZZ_DIR) $(FUZZ_SECONDS) $(FUZZ_TARGETS)
