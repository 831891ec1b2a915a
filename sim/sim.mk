# sim/sim.mk - Verilator harnesses, included by the top Makefile.
#   build/sim/enc_<set>/Vtrc_sim_enc   trc_enc (all four OUT_W) vs the C model
#   build/sim/core_<set>/Vtrc_sim_core trc_core with random events
#   build/sim/data/*.20k.txt           20k-record prefixes of the sample traces
# One Verilator build per parameter set, cached under build/sim/. `make wave`
# writes build/sim/trc.fst for `gtkwave build/sim/trc.fst sim/trc.gtkw`.

SIM_DIR := $(B)/sim
# trc.core's file sets (the top Makefile's $(B)/core.mk)
RTL_V    := $(CORE_RTL)
RTL_DEPS := $(CORE_RTL) $(CORE_HDR_RTL) $(CORE_WAIVERS)
SIM_VFLAGS := --cc --exe --build -j 2 -Wall --assert --x-assign unique \
              --x-initial unique +define+TRC_ASSERT $(addprefix -I,$(CORE_INC_RTL)) \
              $(CORE_WAIVERS)
# Only these builds can write a waveform (--wave): tracing nearly doubles a
# build's compile time, and the regression's other builds never dump one.
SIM_WAVE_BUILDS := enc_paper core_paper

# $(call with,LIST,NAME=VALUE...): the parameter list LIST with the given
# values set (added or replacing the ones of the same names).
with = $(filter-out $(foreach a,$(2),$(firstword $(subst =, ,$(a)))=%),$(1)) $(2)

# Format parameter sets of the regression: the paper's (trc.core's defaults)
# and variations of it.
SIM_SETS    := paper nd2 nd4 nt16 fid8
SIM_P_paper := $(filter NT=% FID_W=% TYPE_W=% VAL_W=% ND_%,$(CORE_PARAMS))
SIM_P_nd2   := $(call with,$(SIM_P_paper),ND_F=2 ND_T=2 ND_V=2)
SIM_P_nd4   := $(call with,$(SIM_P_paper),ND_F=4 ND_T=4 ND_V=4)
SIM_P_nt16  := $(call with,$(SIM_P_paper),NT=16)
SIM_P_fid8  := $(call with,$(SIM_P_paper),FID_W=8)
# Beyond the matrix: 64-bit records, coded records up to 76 bits (> OUT_W,
# the packer's general case), a 255-entry and a 1-entry dictionary.
SIM_SETS    += wide tiny
SIM_P_wide  := NT=31 FID_W=31 TYPE_W=8 VAL_W=16 ND_F=8 ND_T=1 ND_V=5
# The smallest format: seeded random traces only (the samples do not fit).
SIM_P_tiny  := NT=2 FID_W=1 TYPE_W=3 VAL_W=1 ND_F=1 ND_T=1 ND_V=1
# Frames: SYNC after every SYNC_EVERY trace records, the model
# inserts the same SYNCs; SYNC_EVERY = 1 is the edge case (a SYNC each record).
SIM_SETS    += paperf tinyf
SIM_P_paperf := $(SIM_P_paper) SYNC_EVERY=64
SIM_P_tinyf  := $(SIM_P_tiny) SYNC_EVERY=1
# Stack mode: the same harness on its own sets. Every set moves
# SK and SD off the defaults somewhere: tiny tables and stacks overflow,
# the 64-deep stack and 4096-entry table are the top of the range.
SIM_SETS     += stack snt16 sfid8 swide stiny stackf
SIM_P_stack  := $(SIM_P_paper) MODE=1 SK=9 SD=16
SIM_P_snt16  := $(SIM_P_nt16) MODE=1 SK=6 SD=4
SIM_P_sfid8  := $(call with,$(SIM_P_fid8),ND_F=2 ND_T=2 ND_V=2 MODE=1 SK=12 SD=64)
SIM_P_swide  := $(SIM_P_wide) MODE=1 SK=10 SD=2
SIM_P_stiny  := $(SIM_P_tiny) MODE=1 SK=4 SD=1
SIM_P_stackf := $(SIM_P_stack) SYNC_EVERY=64
# Stack mode 2 (MODE=2): its own sets, SK, SD and SO off the defaults
# somewhere, ND_F and ND_V as its preset (15 entries) or others.
SIM_SETS     += s2 s2nt16 s2fid8 s2wide s2tiny s2f
SIM_P_s2     := $(call with,$(SIM_P_paper),ND_F=4 ND_V=4) MODE=2 SK=12 SD=16 SO=9
SIM_P_s2nt16 := $(SIM_P_nt16) MODE=2 SK=6 SD=4 SO=5
SIM_P_s2fid8 := $(call with,$(SIM_P_fid8),ND_F=2 ND_T=2 ND_V=2) MODE=2 SK=10 SD=64 SO=12
SIM_P_s2wide := $(SIM_P_wide) MODE=2 SK=11 SD=3 SO=7
SIM_P_s2tiny := $(SIM_P_tiny) MODE=2 SK=4 SD=1 SO=4
SIM_P_s2f    := $(SIM_P_s2) SYNC_EVERY=64
# Stack mode 2 with fresh entries (FE, docs/format.md 4.8): its preset as
# the host tools write it by default (tests/t_rtl.sh adds SYNCs, after
# which every entry is fresh again), the same with a time quantum (TQ: the
# sample traces' deltas are not multiples of it, every delta raw, the OS
# captures' are; tests/t_rtl.sh runs both), and the smallest format.
SIM_SETS     += s2fe s2q s2tinyfe
SIM_P_s2fe   := $(SIM_P_s2) FE=1
SIM_P_s2q    := $(SIM_P_s2fe) TQ=100
SIM_P_s2tinyfe := $(SIM_P_s2tiny) FE=1
# The lean encoder (LEAN = 1, rtl/trc_lean.v): the paper mode sets again,
# the same harness and model.
SIM_SETS     += lpaper lnd2 lnd4 lnt16 lfid8 lwide ltiny lpaperf ltinyf
SIM_P_lpaper  := $(SIM_P_paper) LEAN=1
SIM_P_lnd2    := $(SIM_P_nd2) LEAN=1
SIM_P_lnd4    := $(SIM_P_nd4) LEAN=1
SIM_P_lnt16   := $(SIM_P_nt16) LEAN=1
SIM_P_lfid8   := $(SIM_P_fid8) LEAN=1
SIM_P_lwide   := $(SIM_P_wide) LEAN=1
SIM_P_ltiny   := $(SIM_P_tiny) LEAN=1
SIM_P_lpaperf := $(SIM_P_paperf) LEAN=1
SIM_P_ltinyf  := $(SIM_P_tinyf) LEAN=1
# Checked streams (CHECK = 1, docs/format.md 4.10): the full and the lean
# encoder with frames, and a SYNC each record at the smallest format.
SIM_SETS      += cpaperf ctinyf clpaperf
SIM_P_cpaperf  := $(SIM_P_paperf) CHECK=1
SIM_P_ctinyf   := $(SIM_P_tinyf) CHECK=1
SIM_P_clpaperf := $(SIM_P_lpaperf) CHECK=1
# Not in the regression: the 256-entry table of the FPGA report's second
# stack mode row (built by make fpga).
SIM_P_stack8 := $(SIM_P_paper) MODE=1 SK=8 SD=16
# trc_core builds: format parameters plus the front end's.
CORE_SETS    := paper nt12 nt12f
CORE_P_paper := $(SIM_P_paper) OUT_W=64 PRESCALE=1 FIFO_AW=4
CORE_P_nt12  := $(call with,$(SIM_P_paper),NT=12) OUT_W=8 PRESCALE=3 FIFO_AW=3
# frames every 37 trace records; VAL_W = 8, so overflow storms overrun one
# LOST record (255) and the count is split over several
CORE_P_nt12f := $(call with,$(SIM_P_paper),NT=12 VAL_W=8) OUT_W=16 PRESCALE=2 FIFO_AW=2 \
                SYNC_EVERY=37
# The lean trc_core of the FPGA report (one register for a FIFO, the
# smallest counters), and the same at NT = 12 with frames and split LOST
# counts (VAL_W = 8: the 16-bit drop counter holds the storms' drops)
CORE_SETS     += lean lnt12f
# (the default counters: the FPGA row's DT_W 24 keeps time exact only while a
# record waits under 2^24 ticks, which these runs' idle gaps exceed)
CORE_P_lean   := $(SIM_P_paper) LEAN=1 OUT_W=8 PRESCALE=1 FIFO_AW=0
CORE_P_lnt12f := $(call with,$(SIM_P_paper),NT=12 VAL_W=8) LEAN=1 OUT_W=16 PRESCALE=2 \
                 FIFO_AW=0 DT_W=16 DROP_W=16 SYNC_EVERY=37

# $(call sim_build,TOP,PARAMS,CPP,OUT): the same NAME=VALUE list goes to the
# RTL (-G) and to the harness (-DTRC_P_NAME=VALUE).
define sim_build
	@mkdir -p $(dir $(4))
	verilator $(SIM_VFLAGS) $(if $(filter $(notdir $(patsubst %/,%,$(dir $(4)))),$(SIM_WAVE_BUILDS)),--trace-fst) \
	  --top-module $(1) $(addprefix -G,$(2)) \
	  -CFLAGS "-O2 -I$(CURDIR)/model -I$(CURDIR)/sim $(addprefix -DTRC_P_,$(2))" \
	  -Mdir $(dir $(4)) -o $(notdir $(4)) $(filter %.v,$^) \
	  $(CURDIR)/$(3) $(CURDIR)/$(B)/rel/libtrc.a > $(dir $(4))build.log 2>&1 \
	  || { cat $(dir $(4))build.log; exit 1; }
endef

$(SIM_DIR)/enc_%/Vtrc_sim_enc: $(CORE_SIM_ENC) $(CORE_HDR_SIM_ENC) $(RTL_DEPS) \
    $(B)/rel/libtrc.a
	$(call sim_build,trc_sim_enc,$(SIM_P_$*),sim/trc_sim_enc.cpp,$@)

$(SIM_DIR)/core_%/Vtrc_sim_core: $(RTL_DEPS) sim/trc_sim_core.cpp $(CORE_HDR_SIM_ENC) \
    $(B)/rel/libtrc.a
	$(call sim_build,trc_core,$(CORE_P_$*),sim/trc_sim_core.cpp,$@)

# Directed-test vectors for Icarus, written by the C model.
$(SIM_DIR)/trc_vec: sim/trc_vec.cpp sim/trc_sim_util.h $(B)/rel/libtrc.a
	@mkdir -p $(@D)
	$(CXX) -O2 -std=c++14 -Wall -Wextra -Imodel -Isim $< $(B)/rel/libtrc.a -o $@

SIM_TRACES := $(patsubst tests/data/%.txt.xz,%,$(wildcard tests/data/*_t*.txt.xz))
# and the OS-heavy traces of stack mode 2's runs (tests/data/os)
SIM_TRACES += $(patsubst tests/data/%.txt.xz,%,$(wildcard tests/data/os/*_t*.txt.xz))
SIM_DATA   := $(patsubst %,$(SIM_DIR)/data/%.20k.txt,$(SIM_TRACES))
$(SIM_DIR)/data/%.20k.txt: tests/data/%.txt.xz
	@mkdir -p $(@D)
	xz -dc $< | grep -v '^#' | head -n 20000 > $@.tmp && mv $@.tmp $@

SIM_BUILDS := $(foreach s,$(SIM_SETS),$(SIM_DIR)/enc_$(s)/Vtrc_sim_enc) \
              $(foreach s,$(CORE_SETS),$(SIM_DIR)/core_$(s)/Vtrc_sim_core) \
              $(SIM_DIR)/trc_vec
.PHONY: sim-deps wave
sim-deps: $(SIM_BUILDS) $(SIM_DATA)
TEST_DEPS += sim-deps

WAVE_FST ?= $(SIM_DIR)/trc.fst
wave: $(SIM_DIR)/enc_paper/Vtrc_sim_enc $(SIM_DIR)/data/lua_calls_t10.20k.txt
	$< $(SIM_DIR)/data/lua_calls_t10.20k.txt --records 2000 --out-w 64 \
	  --stall-in 0.1 --stall-out 0.3 --end-every 700 --sync-every 900 \
	  --wave $(WAVE_FST)
	@echo "wave: gtkwave $(WAVE_FST) sim/trc.gtkw"

# ---- soak (streaming harness, not in `make test`; the test suite runs a
# 1M-record version). Paper parameters, SYNC every 4096 trace records;
# records are generated in the harness (seeded random chunks alternating with
# the sample traces' 20k prefixes, looped), nothing is written to disk.
SOAK_P       := $(SIM_P_paper) SYNC_EVERY=4096
SOAK_RECORDS ?= 100000000
SOAK_FLAGS   ?= --out-w 64 --stall-in 0.02 --stall-out 0.02 --seed 7
$(SIM_DIR)/soak/Vtrc_sim_enc: $(filter %.v,$(CORE_SIM_ENC)) $(RTL_DEPS) sim/trc_sim_soak.cpp \
    $(CORE_HDR_SIM_ENC) $(B)/rel/libtrc.a
	$(call sim_build,trc_sim_enc,$(SOAK_P),sim/trc_sim_soak.cpp,$@)
SIM_BUILDS += $(SIM_DIR)/soak/Vtrc_sim_enc
sim-deps: $(SIM_DIR)/soak/Vtrc_sim_enc

.PHONY: soak
soak: $(SIM_DIR)/soak/Vtrc_sim_enc $(SIM_DATA)
	@mkdir -p $(B)/tmp
	@echo "soak: $(SOAK_RECORDS) records, $<"
	@/usr/bin/time -f 'soak wall %e s, max RSS %M kB' $< --records $(SOAK_RECORDS) \
	  $(SOAK_FLAGS) $(SIM_DATA) 2>&1 | tee $(B)/tmp/soak.txt
	@grep -q 'PASS$$' $(B)/tmp/soak.txt
