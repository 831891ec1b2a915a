# trc: real-time trace compression. `make demo` runs the main job, `make test`
# the whole regression (ends with "N passed, N failed"). Outputs go to build/.

CC      ?= cc
CFLAGS  ?= -O2 -g
WARN    := -std=c99 -Wall -Wextra -Wshadow -Wstrict-prototypes -Werror
SANFLAGS := -O1 -g -fsanitize=address,undefined -fno-omit-frame-pointer \
            -fno-sanitize-recover=all
B := build

LIB_SRCS  := $(wildcard model/*.c)
TOOL_SRCS := $(wildcard tools/*.c)
TOOL_MAIN := tools/trc.c tools/trc_bench.c
CLI_SRCS  := $(filter-out $(TOOL_MAIN),$(TOOL_SRCS))
CLI_LIBS  := -llzma -lzstd -lm

# Every Verilator build compiles the same runtime (verilated.cpp and its
# kin, about a fifth of a build's CPU time): ccache compiles it once.
# Verilator's generated makefiles take OBJCACHE from the environment.
ifneq ($(shell command -v ccache 2>/dev/null),)
export OBJCACHE ?= ccache
export CCACHE_DIR ?= $(CURDIR)/$(B)/ccache
endif

.PHONY: all deps demo test test-deps check lint bench stack-report clean
all: $(B)/trc $(B)/trc_bench

deps:
	@tools/install-deps.sh

# Release and sanitizer builds share one pattern: $(B)/<variant>/...
$(B)/rel/%.o: %.c $(wildcard model/*.h tools/*.h)
	@mkdir -p $(dir $@)
	$(CC) $(WARN) $(CFLAGS) -Imodel -Itools -c $< -o $@
$(B)/asan/%.o: %.c $(wildcard model/*.h tools/*.h)
	@mkdir -p $(dir $@)
	$(CC) $(WARN) $(SANFLAGS) -Imodel -Itools -c $< -o $@

$(B)/rel/libtrc.a: $(patsubst %.c,$(B)/rel/%.o,$(LIB_SRCS))
	ar rcs $@ $^
$(B)/asan/libtrc.a: $(patsubst %.c,$(B)/asan/%.o,$(LIB_SRCS))
	ar rcs $@ $^

$(B)/trc: $(patsubst %.c,$(B)/rel/%.o,tools/trc.c $(CLI_SRCS)) $(B)/rel/libtrc.a
	$(CC) $(CFLAGS) $^ $(CLI_LIBS) -o $@
$(B)/asan/trc: $(patsubst %.c,$(B)/asan/%.o,tools/trc.c $(CLI_SRCS)) $(B)/asan/libtrc.a
	$(CC) $(SANFLAGS) $^ $(CLI_LIBS) -o $@
$(B)/trc_bench: $(B)/rel/tools/trc_bench.o $(B)/rel/libtrc.a
	$(CC) $(CFLAGS) $^ -llz4 -lzstd -o $@

# Unit tests: tests/unit_*.c, each linked with the library, release and ASan.
UNIT := $(patsubst tests/%.c,%,$(wildcard tests/unit_*.c))
$(B)/%: $(B)/rel/tests/%.o $(B)/rel/libtrc.a
	$(CC) $(CFLAGS) $^ -o $@
$(B)/asan/%: $(B)/asan/tests/%.o $(B)/asan/libtrc.a
	$(CC) $(SANFLAGS) $^ -o $@
$(foreach v,rel asan,$(patsubst %,$(B)/$(v)/tests/%.o,$(UNIT))): tests/unit.h
unit: $(addprefix $(B)/,$(UNIT)) $(addprefix $(B)/asan/,$(UNIT)) $(B)/trc $(B)/asan/trc

# libFuzzer targets (clang): tests/fuzz/fuzz_*.c against the library and the
# CLI's sources (all but its main), compiled once for every target.
FUZZ := $(patsubst tests/fuzz/%.c,$(B)/fuzz/%,$(wildcard tests/fuzz/fuzz_*.c))
FUZZ_CFLAGS := -std=gnu99 -g -O1 -fno-sanitize-recover=all -Imodel -Itools
FUZZ_OBJS := $(patsubst %.c,$(B)/fuzz/obj/%.o,$(LIB_SRCS) $(CLI_SRCS))
$(B)/fuzz/obj/%.o: %.c $(wildcard model/*.h tools/*.h)
	@mkdir -p $(dir $@)
	clang $(FUZZ_CFLAGS) -fsanitize=fuzzer-no-link,address,undefined -c $< -o $@
# (kept: make would delete them as intermediates after every build)
.SECONDARY: $(FUZZ_OBJS)
$(B)/fuzz/%: tests/fuzz/%.c $(FUZZ_OBJS)
	clang $(FUZZ_CFLAGS) -fsanitize=fuzzer,address,undefined $^ $(CLI_LIBS) -o $@
TEST_DEPS += $(FUZZ)

# HDL file lists and the format's parameters, taken from trc.core, the one
# place they are written (tools/corefiles.py): CORE_<FILESET> (files),
# CORE_INC_<FILESET> (include folders), CORE_HDR_<FILESET> (include files),
# CORE_PARAMS (NAME=VALUE defaults). Make remakes it when trc.core changes.
$(B)/core.mk: trc.core tools/corefiles.py
	@mkdir -p $(B)
	@python3 -c 'import yaml' 2>/dev/null || tools/install-deps.sh
	@python3 tools/corefiles.py --make > $@.tmp && mv $@.tmp $@
include $(B)/core.mk

# Each area adds its own targets in a fragment (sim/sim.mk, fpga/fpga.mk...).
-include $(wildcard */*.mk)

# The regression's builds run TEST_JOBS at a time, then its suites.
TEST_JOBS ?= 2
test: deps unit
	@$(MAKE) --no-print-directory -j$(TEST_JOBS) test-deps
	@tests/run.sh
test-deps: $(TEST_DEPS)

check: deps unit
	@tests/run.sh tests/t_model.sh tests/t_cli.sh

bench: deps $(B)/trc $(B)/trc_bench
	@tests/bench.sh

# The stack modes beside paper mode, the LZ4 core and gzip/zstd (slow, ~20 min).
stack-report: deps $(B)/trc $(B)/lz4/trc_lz4 $(B)/sim/enc_stack/Vtrc_sim_enc \
    $(B)/sim/enc_s2/Vtrc_sim_enc $(B)/sim/enc_s2fe/Vtrc_sim_enc $(B)/sim/enc_s2q/Vtrc_sim_enc
	@tests/stack_report.sh

demo: deps $(B)/trc $(DEMO_DEPS)
	@tools/demo.sh

clean:
	rm -rf $(B)

.PHONY: fuzz
fuzz: deps $(FUZZ) $(B)/trc
	rm -f build/tmp/fuzz_summary.txt
	FUZZ_SECONDS=$${FUZZ_SECONDS:-300} tests/t_fuzz.sh

.PHONY: readme
readme:
	python3 tools/readme_tables.py
	python3 tools/doc_figures.py
