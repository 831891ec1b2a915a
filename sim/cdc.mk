# sim/cdc.mk - the dual-clock front end's Verilator harness, included by the
# top Makefile: build/sim/cdc_<set>/Vtrc_core_dc (sim/trc_sim_cdc.cpp,
# trc_core_dc on two clocks). tests/t_cdc.sh runs it.
#   cdc_paper  paper format, OUT_W 64, 16-entry FIFOs, 2 synchronizer flops
#   cdc_small  NT 12, VAL_W 8 (LOST counts split), OUT_W 8 (trc_core drops
#              under load), 4-entry FIFOs (the crossing overflows), 3 flops
CDC_SETS := paper small
CDC_P_paper := $(filter NT=% FID_W=% TYPE_W=% VAL_W=% ND_%,$(CORE_PARAMS)) OUT_W=64 \
               PRESCALE=1 FIFO_AW=4 CDC_AW=4 CDC_SYNC=2
CDC_P_small := NT=12 FID_W=15 TYPE_W=7 VAL_W=8 ND_F=3 ND_T=3 ND_V=3 OUT_W=8 \
               PRESCALE=1 FIFO_AW=2 CDC_AW=2 CDC_SYNC=3

$(B)/sim/cdc_%/Vtrc_core_dc: $(CORE_RTL) $(CORE_HDR_RTL) $(CORE_WAIVERS) sim/trc_sim_cdc.cpp \
    $(CORE_HDR_SIM_CDC) $(CORE_HDR_SIM_ENC) $(B)/rel/libtrc.a
	$(call sim_build,trc_core_dc,$(CDC_P_$*),sim/trc_sim_cdc.cpp,$@)

CDC_BUILDS := $(foreach s,$(CDC_SETS),$(B)/sim/cdc_$(s)/Vtrc_core_dc)
.PHONY: cdc-deps
cdc-deps: $(CDC_BUILDS)
TEST_DEPS += cdc-deps
