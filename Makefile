# The two entry points of the README. Both install what is missing (Debian packages only),
# configure a Release build with Ninja into build/, and build.
BUILD_DIR ?= build
JOBS ?= $(shell nproc)
CMAKE_FLAGS ?=

.PHONY: run test build deps configure bench clean

deps:
	@./scripts/install-deps.sh

configure: deps
	@if [ ! -f $(BUILD_DIR)/build.ninja ]; then \
	  cmake -S . -B $(BUILD_DIR) -G Ninja -DCMAKE_BUILD_TYPE=Release $(CMAKE_FLAGS) >/dev/null; \
	fi

build: configure
	@cmake --build $(BUILD_DIR) --target softsim -j $(JOBS)

run: build
	@$(BUILD_DIR)/softsim run --out output/default

test: configure
	@cmake --build $(BUILD_DIR) -j $(JOBS)
	@cd $(BUILD_DIR) && ctest --output-on-failure -j $(JOBS) --timeout 900

bench: configure
	@cmake --build $(BUILD_DIR) -j $(JOBS)

clean:
	rm -rf $(BUILD_DIR)
