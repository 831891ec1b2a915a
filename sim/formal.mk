# sim/formal.mk - `make formal`: bounded and inductive proofs of the FIFO,
# the skid buffer, the packer (OUT_W 8 to 64) and the dictionary
# (sim/formal/run.sh: yosys-smtbmc + yices, else z3).
# FORMAL_ARGS = BMC_DEPTH IND_DEPTH TRACK_DEPTH PACKER_DEPTH DICT_DEPTH WIDE.
# `make test` runs a short version in tests/t_rtl_rel.sh.
FORMAL_ARGS ?= 30 8 14 7 9 1
.PHONY: formal
formal:
	@mkdir -p $(B)/tmp
	@sim/formal/run.sh $(FORMAL_ARGS) | tee $(B)/tmp/formal.txt
	@! grep -q '^not ok' $(B)/tmp/formal.txt
