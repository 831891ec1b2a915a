# sim/mp.mk - the Verilator harness of trc_mpcore (several CPUs, one stream;
# sim/trc_sim_mp.cpp), included by the top Makefile beside sim/sim.mk.
#   build/sim/mp_<set>/Vtrc_sim_mp   trc_mpcore vs the C model, per CPU
# Sets: the paper's widths with 1 (the single-CPU stream), 2, 4 and 8 CPUs;
# and NT = 12 (3 z values above NT: 5 CPUs need one extra switch code bit),
# VAL_W = 8 (LOST counts split), a narrow output, a prescaler and bursts of
# one record; and NT = 10 on 3 CPUs with 4-record FIFOs, where a TIME_EXT
# falls due after 1023 ticks without a record (in storms too), so that
# broadcasts wait on one (the ready rule's `due` term, docs/rtl.md
# "Markers, start/stop and drain", which the harness's --probes reach; a
# smaller NT would keep the drain from ever being quiet for the harness's
# 200 clocks).
# (Recursive variables: sim/sim.mk's SIM_P_paper and sim_build may be
# included after this file.)
MP_SETS    := mp1 mp2 mp4 mp8 mp5n mp3t
MP_P_mp1    = $(SIM_P_paper) NCPU=1 OUT_W=32 PRESCALE=1 FIFO_AW=3 BURST=16
MP_P_mp2    = $(SIM_P_paper) NCPU=2 OUT_W=64 PRESCALE=1 FIFO_AW=4 BURST=16
MP_P_mp4    = $(SIM_P_paper) NCPU=4 OUT_W=64 PRESCALE=1 FIFO_AW=4 BURST=16
MP_P_mp8    = $(SIM_P_paper) NCPU=8 OUT_W=64 PRESCALE=1 FIFO_AW=2 BURST=4
MP_P_mp5n   = $(call with,$(SIM_P_paper),NT=12 VAL_W=8) NCPU=5 OUT_W=16 PRESCALE=2 \
              FIFO_AW=3 BURST=1
MP_P_mp3t   = $(call with,$(SIM_P_paper),NT=10) NCPU=3 OUT_W=32 PRESCALE=1 FIFO_AW=2 BURST=2

$(B)/sim/mp_%/Vtrc_sim_mp: $(CORE_RTL) $(CORE_HDR_RTL) $(CORE_WAIVERS) $(CORE_SIM_MP) \
    $(CORE_HDR_SIM_MP) $(CORE_HDR_SIM_ENC) $(B)/rel/libtrc.a
	$(call sim_build,trc_sim_mp,$(MP_P_$*),sim/trc_sim_mp.cpp,$@)

MP_BUILDS := $(foreach s,$(MP_SETS),$(B)/sim/mp_$(s)/Vtrc_sim_mp)
.PHONY: mp-sim-deps
mp-sim-deps: $(MP_BUILDS)
sim-deps: mp-sim-deps
