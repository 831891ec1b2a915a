# sim/formal.mk - `make formal`: bounded and inductive proofs of the FIFO and
# skid-buffer handshake properties, bounded proofs of the packer and the
# dictionary (sim/formal/run.sh: yosys-smtbmc + z3).
# FORMAL_ARGS = BMC_DEPTH IND_DEPTH TRACK_DEPTH PACKER_DEPTH DICT_DEPTH.
# `make test` runs a short version in tests/t_rtl_rel.sh.
FORMAL_ARGS ?= 30 8 14 7 9
.PHONY: formal
formal:
	@mkdir -p $(B)/tmp
	@sim/formal/run.sh $(FORMAL_ARGS) | tee $(B)/tmp/formal.txt
	@! grep -q '^not ok' $(B)/tmp/formal.txt
