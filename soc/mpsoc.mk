# soc/mpsoc.mk - trc_mpsoc: 2 and 4 PicoRV32s traced into one stream by
# trc_mpcore (docs/soc.md, "Several CPUs"), included by the top Makefile.
#   build/soc/fw/mpfw.elf, mpfw.hex, mpfw.sym   the multi-CPU firmware
#                                (soc/fw/main.c's workloads + soc/fw/mp.c)
#   build/soc/mpsim_<N>/Vtrc_mpsoc             the system with N CPUs
#   make mp-demo                                the 2-CPU system end to end:
#                                per-CPU call trees and the marker times
# (soc/soc.mk defines the toolchain, PicoRV32 and the Verilator flags; the
# rules below expand them when they run.)
MPSOC_NS := 2 4

$(B)/soc/fw/mpfw.elf: soc/fw/start.S soc/fw/main.c soc/fw/mp.c soc/fw/soc.h
	@mkdir -p $(@D)/mp
	$(RV_CC) $(RV_CFLAGS) -I$(PICO_DIR)/firmware -c soc/fw/start.S -o $(@D)/mp/start.o
	$(RV_CC) $(RV_CFLAGS) -DFW_MP -c soc/fw/main.c -o $(@D)/mp/main.o
	$(RV_CC) $(RV_CFLAGS) -c soc/fw/mp.c -o $(@D)/mp/mp.o
	$(RV_CC) $(RV_LDFLAGS) $(@D)/mp/start.o $(PICOLIBC)/lib/rv32im/ilp32/crt0.o \
	  $(@D)/mp/main.o $(@D)/mp/mp.o -o $@.tmp && mv $@.tmp $@
$(B)/soc/fw/mpfw.hex: $(B)/soc/fw/mpfw.elf
	riscv64-unknown-elf-objcopy -O binary $< $@.bin
	od -An -v -tx4 -w4 $@.bin | tr -d ' ' > $@.tmp && mv $@.tmp $@
$(B)/soc/fw/mpfw.sym: $(B)/soc/fw/mpfw.elf soc/elf_symmap.py
	python3 soc/elf_symmap.py $< $@

$(B)/soc/mpsim_%/Vtrc_mpsoc: $(CORE_SOC) $(CORE_RTL) $(CORE_HDR_RTL) soc/trc_mpsoc.v \
    soc/trc_mpsoc_sim.cpp $(CORE_HDR_SIM_ENC) $(CORE_WAIVERS) $(CORE_SOC_WAIVERS) \
    $(B)/rel/libtrc.a
	@mkdir -p $(@D)
	verilator $(SOC_VFLAGS) --top-module trc_mpsoc -GNCPU=$* \
	  -CFLAGS "-O2 -I$(CURDIR)/model -I$(CURDIR)/sim -DTRC_P_NCPU=$*" \
	  -Mdir $(@D) -o Vtrc_mpsoc $(CORE_SOC) $(CORE_RTL) soc/trc_mpsoc.v $(PICO_V) \
	  $(CURDIR)/soc/trc_mpsoc_sim.cpp $(CURDIR)/$(B)/rel/libtrc.a > $(@D)/build.log 2>&1 \
	  || { cat $(@D)/build.log; exit 1; }

MPSOC_DEPS := $(foreach n,$(MPSOC_NS),$(B)/soc/mpsim_$(n)/Vtrc_mpsoc) \
              $(B)/soc/fw/mpfw.hex $(B)/soc/fw/mpfw.sym $(B)/trc
.PHONY: mpsoc-deps mp-demo
mpsoc-deps: $(MPSOC_DEPS)
TEST_DEPS += mpsoc-deps
DEMO_DEPS += mpsoc-deps

mp-demo: deps mpsoc-deps
	@soc/mp_run.sh 2 $(B)/soc/mp-demo --show
