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
FPGA_ICE40 := trc_enc_w32 trc_enc_w64 trc_stack_w64 trc_stack8_w64 trc_core lz4_w12
# stack mode 2's 4096-entry table needs 36 iCE40 block RAMs (the HX8K has 32)
FPGA_ECP5  := $(FPGA_ICE40) trc_stack2_w64 lz4_w16
FPGA_SRC   := fpga/flow.py tools/corefiles.py trc.core $(CORE_FPGA) $(CORE_CONSTRAINTS) \
              $(CORE_RTL) $(CORE_HDR_RTL) $(CORE_LZ4)
comma := ,
empty :=
space := $(empty) $(empty)

FPGA_SYN  := $(foreach d,$(FPGA_ICE40),$(FPGA_DIR)/syn/$(d).ice40.json) \
             $(foreach d,$(FPGA_ECP5),$(FPGA_DIR)/syn/$(d).ecp5.json $(FPGA_DIR)/syn/$(d).xc4v.json)
FPGA_PNR  := $(foreach d,$(FPGA_ICE40),$(foreach v,hx8k up5k,$(foreach s,$(FPGA_SEEDS),\
               $(FPGA_DIR)/pnr/$(d).$(v).s$(s).json))) \
             $(foreach d,$(FPGA_ECP5),$(foreach v,ecp5-6 ecp5-8,$(foreach s,$(FPGA_SEEDS),\
               $(FPGA_DIR)/pnr/$(d).$(v).s$(s).json)))
fpga_arch = $(if $(filter ecp5%,$(1)),ecp5,ice40)

.PHONY: fpga fpga-runs fpga-quick
FPGA_SIMS := $(foreach s,paper stack stack8 s2,$(B)/sim/enc_$(s)/Vtrc_sim_enc)
fpga: deps lz4-deps $(B)/trc $(FPGA_SIMS)
	@tools/install-deps.sh --fpga
	@$(MAKE) --no-print-directory -j$(FPGA_JOBS) fpga-runs
	python3 fpga/flow.py report $(FPGA_DIR)
	@echo "fpga: reports/fpga.md reports/fpga.json reports/fpga.svg"
fpga-runs: $(FPGA_DIR)/perf.json $(FPGA_SYN) $(FPGA_PNR)

fpga-quick: deps
	@tests/run.sh tests/t_fpga_quick.sh

# (fpga/lz4.mk is read after this file: its trace list is spelled out here)
$(FPGA_DIR)/perf.json: fpga/flow.py $(B)/lz4/sim_w12/trc_lz4_sim \
    $(B)/lz4/sim_w16/trc_lz4_sim $(B)/trc $(FPGA_SIMS) \
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
