# soc/soc.mk - PicoRV32 + trc_rvfi + trc_core (docs/soc.md), included by the
# top Makefile.
#   build/soc/fw/fw.elf, fw.hex, fw.sym   the firmware (rv32im, picolibc), its
#                                         RAM image and its trc symbol map
#   build/soc/sim_<set>/Vtrc_soc          the system in Verilator (soc/trc_soc_sim.cpp)
#   make soc-run                          one run, every workload, paper mode
# PicoRV32 comes from the PyPI package pythondata-cpu-picorv32
# (tools/install-deps.sh installs it); its Verilog is found through the
# package's data_location, never copied here.
SOC_DIR  := $(B)/soc
PICO_DIR := $(shell python3 -c 'import pythondata_cpu_picorv32 as p; print(p.data_location)' 2>/dev/null)
PICO_V   := $(PICO_DIR)/picorv32.v

RV_CC     := riscv64-unknown-elf-gcc
RV_ARCH   := -march=rv32im -mabi=ilp32
PICOLIBC  := /usr/lib/picolibc/riscv64-unknown-elf
# Calls stay calls: no sibling calls (a tail call is a jump, docs/soc.md)
RV_CFLAGS := $(RV_ARCH) --specs=picolibc.specs -O2 -g -std=c99 -Wall -Wextra -Werror \
             -fno-optimize-sibling-calls -ffunction-sections
# 32 KB code ("flash") then 32 KB data and stack, all in trc_soc's RAM
RV_LDFLAGS := $(RV_ARCH) --specs=picolibc.specs -nostartfiles \
              -Wl,--defsym=__flash=0,--defsym=__flash_size=0x8000 \
              -Wl,--defsym=__ram=0x8000,--defsym=__ram_size=0x8000

$(SOC_DIR)/fw/fw.elf: soc/fw/start.S soc/fw/main.c soc/fw/soc.h
	@mkdir -p $(@D)
	$(RV_CC) $(RV_CFLAGS) -I$(PICO_DIR)/firmware -c soc/fw/start.S -o $(@D)/start.o
	$(RV_CC) $(RV_CFLAGS) -c soc/fw/main.c -o $(@D)/main.o
	$(RV_CC) $(RV_LDFLAGS) $(@D)/start.o $(PICOLIBC)/lib/rv32im/ilp32/crt0.o \
	  $(@D)/main.o -o $@.tmp && mv $@.tmp $@
# RAM image: 32-bit little-endian words, one per line, for $readmemh
$(SOC_DIR)/fw/fw.hex: $(SOC_DIR)/fw/fw.elf
	riscv64-unknown-elf-objcopy -O binary $< $@.bin
	od -An -v -tx4 -w4 $@.bin | tr -d ' ' > $@.tmp && mv $@.tmp $@
$(SOC_DIR)/fw/fw.sym: $(SOC_DIR)/fw/fw.elf soc/elf_symmap.py
	python3 soc/elf_symmap.py $< $@

# Builds: the tracer in paper mode, in stack mode, and the lean paper mode
# encoder at OUT_W 8 with small counters (as fpga/designs.py's soc_lean)
SOC_SETS   := paper stack lean
SOC_P_paper := MODE=0
SOC_P_stack := MODE=1 SK=9 SD=16
# (32 FIFO entries: a longjmp that unwinds many frames sends an exit a
# clock, and the lean encoder takes about three clocks a record)
SOC_P_lean  := MODE=0 LEAN=1 OUT_W=8 FIFO_AW=5 DT_W=24 DROP_W=17
SOC_V := $(CORE_SOC_SIM) $(CORE_SOC) $(CORE_RTL)
SOC_VFLAGS := --cc --exe --build -j 2 -Wall --assert --x-assign unique --x-initial unique \
              --timescale 1ns/1ps +define+TRC_ASSERT +define+RISCV_FORMAL \
              $(addprefix -I,$(CORE_INC_RTL)) $(CORE_WAIVERS) $(CORE_SOC_WAIVERS)
$(SOC_DIR)/sim_%/Vtrc_soc: $(SOC_V) $(CORE_HDR_RTL) soc/trc_soc_sim.cpp $(CORE_HDR_SIM_ENC) \
    $(CORE_WAIVERS) $(CORE_SOC_WAIVERS) $(B)/rel/libtrc.a
	@mkdir -p $(@D)
	verilator $(SOC_VFLAGS) --top-module trc_soc $(addprefix -G,$(SOC_P_$*)) \
	  -CFLAGS "-O2 -I$(CURDIR)/model -I$(CURDIR)/sim $(addprefix -DTRC_P_,$(SOC_P_$*))" \
	  -Mdir $(@D) -o Vtrc_soc $(SOC_V) $(PICO_V) \
	  $(CURDIR)/soc/trc_soc_sim.cpp $(CURDIR)/$(B)/rel/libtrc.a > $(@D)/build.log 2>&1 \
	  || { cat $(@D)/build.log; exit 1; }

SOC_DEPS := $(foreach s,$(SOC_SETS),$(SOC_DIR)/sim_$(s)/Vtrc_soc) \
            $(SOC_DIR)/fw/fw.hex $(SOC_DIR)/fw/fw.sym $(B)/trc
.PHONY: soc-deps soc-run
soc-deps: $(SOC_DEPS)
TEST_DEPS += soc-deps
DEMO_DEPS += soc-deps

soc-run: soc-deps
	soc/run.sh paper 0 $(SOC_DIR)/run

# Directed tests of trc_rvfi alone (soc/trc_rvfi_sim.cpp): 4-entry shadow
# stack, compressed forms, ids from 2-byte-aligned addresses
RVFI_P := SD_AW=2 RVC=1 ID_SHIFT=1 QAW=2
$(SOC_DIR)/rvfi/Vtrc_rvfi: $(RTL_DEPS) soc/trc_rvfi_sim.cpp
	@mkdir -p $(@D)
	verilator --cc --exe --build -j 2 -Wall --assert --x-assign unique --x-initial unique \
	  +define+TRC_ASSERT $(addprefix -I,$(CORE_INC_RTL)) $(CORE_WAIVERS) \
	  --top-module trc_rvfi $(addprefix -G,$(RVFI_P)) \
	  -CFLAGS -O1 -Mdir $(@D) -o Vtrc_rvfi $(CORE_RTL) \
	  $(CURDIR)/soc/trc_rvfi_sim.cpp > $(@D)/build.log 2>&1 || { cat $(@D)/build.log; exit 1; }
soc-deps: $(SOC_DIR)/rvfi/Vtrc_rvfi
