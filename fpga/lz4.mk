# fpga/lz4.mk - the LZ4 baseline: C model, its CLI, Verilator harnesses and
# trace bin v1 copies of the sample traces, included by the top Makefile.
#   build/lz4/trc_lz4                 model CLI (compress, `bin` converter)
#   build/lz4/sim_<set>/trc_lz4_sim   trc_lz4_core vs the model, per set
#   build/lz4/data/<trace>.bin        tests/data/<trace>.txt.xz in bin v1
LZ4_DIR  := $(B)/lz4
LZ4_RTL  := $(CORE_LZ4)
LZ4_WARN := -std=c99 -Wall -Wextra -Wshadow -Wstrict-prototypes -Werror
# Parameter sets: WIN_BITS OUT_AW LIT_AW
LZ4_SETS   := w12 w16 small
LZ4_P_w12   := WIN_BITS=12 OUT_AW=11 LIT_AW=9
LZ4_P_w16   := WIN_BITS=16 OUT_AW=11 LIT_AW=9
LZ4_P_small := WIN_BITS=10 OUT_AW=8 LIT_AW=7
LZ4_TRACES := $(patsubst tests/data/%.txt.xz,%,$(wildcard tests/data/*_t10.txt.xz))

.PHONY: lz4-deps
lz4-deps: $(LZ4_DIR)/trc_lz4 $(LZ4_DIR)/asan/trc_lz4 \
          $(foreach s,$(LZ4_SETS),$(LZ4_DIR)/sim_$(s)/trc_lz4_sim) \
          $(foreach t,$(LZ4_TRACES),$(LZ4_DIR)/data/$(t).bin)
TEST_DEPS += lz4-deps

$(LZ4_DIR)/trc_lz4.o: model/lz4/trc_lz4.c model/lz4/trc_lz4.h
	@mkdir -p $(@D)
	$(CC) $(LZ4_WARN) $(CFLAGS) -c $< -o $@
$(LZ4_DIR)/libtrc_lz4.a: $(LZ4_DIR)/trc_lz4.o
	ar rcs $@ $^
$(LZ4_DIR)/trc_lz4: model/lz4/trc_lz4_main.c $(LZ4_DIR)/libtrc_lz4.a
	$(CC) $(LZ4_WARN) $(CFLAGS) -Imodel/lz4 $^ -o $@
$(LZ4_DIR)/asan/trc_lz4: model/lz4/trc_lz4_main.c model/lz4/trc_lz4.c model/lz4/trc_lz4.h
	@mkdir -p $(@D)
	$(CC) $(LZ4_WARN) $(SANFLAGS) -Imodel/lz4 $(filter %.c,$^) -o $@

$(LZ4_DIR)/data/%.bin: tests/data/%.txt.xz $(LZ4_DIR)/trc_lz4
	@mkdir -p $(@D)
	xz -dc $< > $@.txt && $(LZ4_DIR)/trc_lz4 bin $@.txt $@ && rm -f $@.txt

# One Verilator build per parameter set; the same values go to the RTL (-G)
# and to the harness (-DTRC_LZ4_P_...).
$(LZ4_DIR)/sim_%/trc_lz4_sim: $(LZ4_RTL) sim/lz4/trc_lz4_sim.cpp $(LZ4_DIR)/libtrc_lz4.a
	@mkdir -p $(@D)
	verilator --cc --exe --build -j 2 -Wall --assert --x-assign unique \
	  --x-initial unique --trace-fst +define+TRC_ASSERT --top-module trc_lz4_core \
	  $(addprefix -G,$(LZ4_P_$*)) \
	  -CFLAGS "-O2 -I$(CURDIR)/model/lz4 $(addprefix -DTRC_LZ4_P_,$(LZ4_P_$*))" \
	  -Mdir $(@D) -o $(@F) $(LZ4_RTL) $(CURDIR)/sim/lz4/trc_lz4_sim.cpp \
	  $(CURDIR)/$(LZ4_DIR)/libtrc_lz4.a > $(@D)/build.log 2>&1 \
	  || { cat $(@D)/build.log; exit 1; }
