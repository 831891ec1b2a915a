// trc_sync: synchronizer of a signal from another clock domain: N flops in a
// row on the destination clock, the first the only one that can go
// metastable. Use it only for a single bit or for a Gray-coded value (one bit
// changes per source clock), both driven straight from a source flop (no
// logic between the source flop and d). Its flops are named sync_q so that
// constraints and CDC tools find them (docs/rtl.md, "Dual-clock front end").
// Parameters:
//   W - bits
//   N - flops in a row, >= 2 (3 for a longer mean time between failures)
`default_nettype none
`include "trc_format.vh"

module trc_sync #(
    parameter W = 1,
    parameter N = 2
) (
    input  wire         clk,   // destination clock
    input  wire [W-1:0] d,     // from a flop of the source domain
    output wire [W-1:0] q
);

    generate
        `TRC_PARAM_CHECK(N >= 2, g_bad_n, trc_bad_param_SYNC_N,
                         "trc_sync: N (synchronizer flops) must be >= 2")
    endgenerate

    // Not reset: whatever they hold is replaced by d within N clocks, and the
    // users (trc_afifo) ignore q while their reset handshake runs.
    (* ASYNC_REG = "TRUE" *) reg [W*N-1:0] sync_q;

    always @(posedge clk)
        sync_q <= {sync_q[W*(N-1)-1:0], d};

    assign q = sync_q[W*N-1:W*(N-1)];

endmodule

`resetall
