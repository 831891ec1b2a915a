# python/python.mk - the Python package and the shared library, included by
# the top Makefile.
#   build/libtrc.so   the C model as a shared library (soname libtrc.so.0),
#                     for programs in other languages. The Python package
#                     does not use it: `pip install ./python` compiles the
#                     model into the package itself (docs/python.md).
#   make python-test  tests/t_python.sh alone (a fresh venv, pip install
#                     ./python, pytest python/)

$(B)/pic/%.o: %.c $(wildcard model/*.h)
	@mkdir -p $(dir $@)
	$(CC) $(WARN) $(CFLAGS) -fPIC -Imodel -c $< -o $@

$(B)/libtrc.so: $(patsubst %.c,$(B)/pic/%.o,$(LIB_SRCS))
	$(CC) $(CFLAGS) -shared -Wl,-soname,libtrc.so.0 $^ -o $@

TEST_DEPS += $(B)/libtrc.so

.PHONY: python-test
python-test: deps $(B)/trc $(B)/libtrc.so
	@tests/run.sh tests/t_python.sh
