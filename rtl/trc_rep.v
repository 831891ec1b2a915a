// trc_rep: one flop that synthesis keeps as a cell of its own. Several
// instances with the same input are replicas of one register with a wide
// fanout (the stack mode coder's stage enable): each drives one stage's
// flops and is placed beside them. Without the hierarchy kept, Yosys merges
// flops with the same input into one (opt_merge).
// Parameters:
//   RV - value after reset
`default_nettype none

(* keep_hierarchy *)
module trc_rep #(
    parameter RV = 1'b0
) (
    input  wire clk,
    input  wire rst,
    input  wire d,
    output reg  q
);

    always @(posedge clk)
        if (rst)
            q <= RV;
        else
            q <= d;

endmodule

`resetall
