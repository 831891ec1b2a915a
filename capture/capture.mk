# capture/capture.mk - the capture library (libtrc_capture.a: hooks + the
# model encoder), the bundled workload built with and without
# -finstrument-functions, and the overhead report (make capture-report).

CAP_LIB := $(B)/libtrc_capture.a
WL_SRCS := $(wildcard capture/workload/*.c)
WL_CFLAGS := -std=gnu99 -O2 -g -Wall -Wextra -Werror

$(B)/rel/capture/trc_capture.o: capture/trc_capture.h
$(CAP_LIB): $(B)/rel/capture/trc_capture.o $(patsubst %.c,$(B)/rel/%.o,$(LIB_SRCS))
	ar rcs $@ $^

$(B)/wl/instr/%.o: capture/workload/%.c capture/workload/wl.h
	@mkdir -p $(dir $@)
	$(CC) $(WL_CFLAGS) -finstrument-functions -c $< -o $@
$(B)/wl/plain/%.o: capture/workload/%.c capture/workload/wl.h
	@mkdir -p $(dir $@)
	$(CC) $(WL_CFLAGS) -c $< -o $@

# wl: instrumented and linked with the capture library; wl_plain: neither.
$(B)/wl/wl: $(patsubst capture/workload/%.c,$(B)/wl/instr/%.o,$(WL_SRCS)) $(CAP_LIB)
	$(CC) $^ -lpthread -o $@
$(B)/wl/wl_plain: $(patsubst capture/workload/%.c,$(B)/wl/plain/%.o,$(WL_SRCS))
	$(CC) $^ -lpthread -o $@

TEST_DEPS += $(CAP_LIB) $(B)/wl/wl $(B)/wl/wl_plain

.PHONY: capture-report
capture-report: $(B)/wl/wl $(B)/wl/wl_plain
	@capture/overhead.sh
