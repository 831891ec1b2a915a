// trc_cdc_bad: clock-domain crossings done wrong, on purpose: the negative
// test of tools/cdc_check.py (tests/t_cdc.sh), which must report both.
// Not part of the IP. No parameters.
`default_nettype none

module trc_cdc_bad (
    input  wire       a_clk,
    input  wire [3:0] a_d,
    input  wire       b_clk,
    output wire [3:0] b_q,
    output wire       b_flag
);

    reg [3:0] a_q;
    always @(posedge a_clk)
        a_q <= a_d;

    // 1: logic (an increment) between the source flop and the synchronizer
    wire [3:0] a_next = a_q + 4'd1;
    trc_sync #(.W(4), .N(2)) u_sync (.clk(b_clk), .d(a_next), .q(b_q));

    // 2: a flop on b_clk that samples a_clk's flop with no synchronizer
    reg flag_q;
    always @(posedge b_clk)
        flag_q <= a_q[0];
    assign b_flag = flag_q;

endmodule

`resetall
