# fpga/fpga.mk - FPGA flows, included by the top Makefile.
#   make fpga        every flow, then reports/fpga.md, reports/fpga.json and
#                    reports/fpga.svg (slow: not part of make test)
#   make fpga-quick  the quick synthesis-only check of both cores
#                    (tests/t_fpga_quick.sh, which make test runs too)
# Results land in build/fpga/{syn,wrap,pnr}/DESIGN.ARCH_OR_DEV[.sSEED].json,
# one file per run, each with the commands that made it (fpga/flow.py).
FPGA_DIR   := $(B)/fpga
FPGA_SEEDS ?= 1 2 3
FPGA_JOBS  ?= 2
# the designs of each flow and the harnesses that measure them: fpga/designs.py
FPGA_ICE40 := $(shell python3 fpga/flow.py designs ice40)
FPGA_ECP5  := $(shell python3 fpga/flow.py designs ecp5)
FPGA_XC4V  := $(shell python3 fpga/flow.py designs xc4v)
FPGA_SIMS  := $(shell python3 fpga/flow.py harnesses)
FPGA_SRC   := $(wildcard fpga/*.py) tools/corefiles.py trc.core $(CORE_FPGA) \
              $(CORE_CONSTRAINTS) $(CORE_RTL) $(CORE_HDR_RTL) $(CORE_LZ4) $(CORE_SOC)
comma := ,
empty :=
space := $(empty) $(empty)

FPGA_SYN  := $(foreach d,$(FPGA_ICE40),$(FPGA_DIR)/syn/$(d).ice40.json) \
             $(foreach d,$(FPGA_ECP5),$(FPGA_DIR)/syn/$(d).ecp5.json) \
             $(foreach d,$(FPGA_XC4V),$(FPGA_DIR)/syn/$(d).xc4v.json)
FPGA_PNR  := $(foreach v,hx8k up5k ecp5-6 ecp5-8,\
               $(foreach d,$(shell python3 fpga/flow.py designs $(v)),\
                 $(foreach s,$(FPGA_SEEDS),$(FPGA_DIR)/pnr/$(d).$(v).s$(s).json)))
fpga_arch = $(if $(filter ecp5%,$(1)),ecp5,ice40)

.PHONY: fpga fpga-runs fpga-quick
fpga: deps lz4-deps $(B)/trc $(FPGA_SIMS)
	@tools/install-deps.sh --fpga
	@t0=$$(date +%s); $(MAKE) --no-print-directory -j$(FPGA_JOBS) fpga-runs; rc=$$?; \
	  python3 tools/steps.py json fpga $(FPGA_DIR) --in syn,wrap,pnr,perf.json --since $$t0 --wall $$(( $$(date +%s) - t0 )); \
	  exit $$rc
	python3 fpga/flow.py report $(FPGA_DIR)
	@echo "fpga: reports/fpga.md reports/fpga.json reports/fpga.svg"
fpga-runs: $(FPGA_DIR)/perf.json $(FPGA_SYN) $(FPGA_PNR)

fpga-quick: deps
	@tests/run.sh tests/t_fpga_quick.sh

# (fpga/lz4.mk is read after this file: its trace list is spelled out here)
$(FPGA_DIR)/perf.json: $(wildcard fpga/*.py) $(B)/trc $(FPGA_SIMS) \
    $(patsubst tests/data/%.txt.xz,$(B)/lz4/data/%.bin,$(wildcard tests/data/*_t10.txt.xz))
	@mkdir -p $(@D)
	python3 fpga/flow.py perf $@ $(subst $(space),$(comma),$(strip $(FPGA_SEEDS)))

# syn/DESIGN.ARCH.json: the core alone; wrap/DESIGN.ARCH.json: in its wrapper
$(FPGA_DIR)/syn/%.json: $(FPGA_SRC)
	@mkdir -p $(@D)
	-python3 fpga/flow.py synth $(subst ., ,$*) $@
$(FPGA_DIR)/wrap/%.json: $(FPGA_SRC)
	@mkdir -p $(@D)
	-python3 fpga/flow.py wrap $(subst ., ,$*) $@
# pnr/DESIGN.DEV.sSEED.json (the wrapped netlists are kept for reruns)
.PRECIOUS: $(FPGA_DIR)/wrap/%.json
.SECONDEXPANSION:
$(FPGA_DIR)/pnr/%.json: $(FPGA_SRC) $$(FPGA_DIR)/wrap/$$(word 1,$$(subst ., ,$$*)).$$(call fpga_arch,$$(word 2,$$(subst ., ,$$*))).json
	@mkdir -p $(@D)
	-python3 fpga/flow.py pnr $(word 1,$(subst ., ,$*)) $(word 2,$(subst ., ,$*)) \
	  $(patsubst s%,%,$(word 3,$(subst ., ,$*))) $@ $(lastword $^)
