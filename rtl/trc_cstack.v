// trc_cstack: the stack mode shadow call stack, SD function ids in a shift
// register (entry 0 is the top). A push when full drops the oldest id; a
// pop when empty does nothing. The top reads as 0 when the stack is empty.
// Parameters:
//   SD - depth, 1..64
//   W  - id width (FID_W)
`default_nettype none

module trc_cstack #(
    parameter SD = 16,
    parameter W  = 15
) (
    input  wire         clk,
    input  wire         rst,
    input  wire         clr,    // SYNC: empty (wins over push and pop)
    input  wire         push,
    input  wire         pop,    // only with !push
    input  wire [W-1:0] id,
    output wire [W-1:0] top,    // 0 when empty
    output wire [W-1:0] second, // the top after a pop (0 when it empties)
    output wire         empty
);

    localparam CW = $clog2(SD + 1);
    localparam [CW-1:0] SD_C = SD[CW-1:0];

    reg [W-1:0]  s_q [0:SD-1];  // entries at and above c_q are stale
    reg [CW-1:0] c_q;

    integer i;
    always @(posedge clk) begin
        if (push) begin
            s_q[0] <= id;
            for (i = 1; i < SD; i = i + 1)
                s_q[i] <= s_q[i-1];
        end else if (pop) begin
            for (i = 0; i < SD - 1; i = i + 1)
                s_q[i] <= s_q[i+1];
        end
        if (rst || clr)
            c_q <= {CW{1'b0}};
        else if (push)
            c_q <= c_q + {{(CW-1){1'b0}}, c_q != SD_C};
        else if (pop && c_q != {CW{1'b0}})
            c_q <= c_q - 1'b1;
    end

    assign empty  = c_q == {CW{1'b0}};
    assign top    = empty ? {W{1'b0}} : s_q[0];
    generate
        if (SD > 1) begin : g_second
            assign second = c_q < 2 ? {W{1'b0}} : s_q[1];
        end else begin : g_second1
            assign second = {W{1'b0}};
        end
    endgenerate

endmodule

`resetall
