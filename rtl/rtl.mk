# rtl/rtl.mk - RTL lint, included by the top Makefile. `make lint` runs
# verilator --lint-only -Wall on every top (parameter sets x OUT_W), an Icarus
# -g2005 compile, a Yosys elaboration + check -assert, and the parameter checks;
# waivers, if ever needed, go in rtl/lint.vlt. The same checks run in
# `make test` as the suite tests/t_rtl_lint.sh. Each check's line shows its
# seconds, and a summary line ends the run (tools/steps.py).
.PHONY: lint rtl-lint
lint: rtl-lint
rtl-lint:
	@mkdir -p $(B)
	@bash tests/t_rtl_lint.sh | python3 tools/steps.py lines lint | tee $(B)/rtl-lint.log
	@! grep -q '^not ok' $(B)/rtl-lint.log
