// trc_cstack: the stack mode shadow call stack of SD function ids. The top
// and the id below it (second) are registers; the SD - 2 ids below those
// live in a small circular RAM (LUT RAM where the FPGA has it: one write
// port at wp_q, one read port at rp_q = wp_q - 1), so a push or pop moves
// two pointers instead of every entry. A push when full overwrites the
// oldest id; a pop when empty does nothing. The top reads as 0 when the
// stack is empty, second as 0 when it holds fewer than two ids.
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
    // en: the user's stages move (late: it follows the output's ready), so
    // it only enables; clr, push and pop act with it.
    input  wire         en,
    input  wire         clr,    // SYNC: empty (wins over push and pop)
    input  wire         push,
    input  wire         pop,    // only with !push
    input  wire [W-1:0] id,
    output wire [W-1:0] top,    // 0 when empty
    output wire [W-1:0] second  // the top after a pop (0 when it empties)
);

    localparam CW = $clog2(SD + 1);
    localparam [CW-1:0] SD_C = SD[CW-1:0];

    // top_q and sec_q are 0 where the stack has no id; ne_q = c_q >= 1
    // and ge2_q = c_q >= 2 are flops of their own. top and second are on
    // the stack mode's slowest path (the table address), and push and pop
    // arrive late (through the exit == top compare and the packer's
    // ready), so they only select among values computed from the
    // registers: no carry chain and no RAM read after them.
    localparam [CW:0] THREE = 3;
    reg [W-1:0]  top_q, sec_q, below;
    reg [CW-1:0] c_q;           // ids on the stack, 0..SD
    reg          ne_q, ge2_q;
    wire [CW-1:0] c_inc = c_q + {{(CW-1){1'b0}}, c_q != SD_C};
    wire [CW-1:0] c_dec = c_q - 1'b1;
    wire          ge3   = {1'b0, c_q} >= THREE;
    always @(posedge clk) begin
        if (rst || en && clr) begin
            c_q   <= {CW{1'b0}};
            ne_q  <= 1'b0;
            ge2_q <= 1'b0;
        end else if (!en) begin
            // hold
        end else if (push) begin
            c_q   <= c_inc;
            ne_q  <= 1'b1;
            ge2_q <= ne_q && SD > 1;
        end else if (pop && ne_q) begin
            c_q   <= c_dec;
            ne_q  <= ge2_q;
            ge2_q <= ge3;
        end
        if (rst || en && clr) begin
            top_q <= {W{1'b0}};
            sec_q <= {W{1'b0}};
        end else if (!en) begin
            // hold
        end else if (push) begin
            top_q <= id;
            sec_q <= SD > 1 ? top_q : {W{1'b0}};
        end else if (pop && ne_q) begin
            top_q <= sec_q;
            sec_q <= ge3 ? below : {W{1'b0}};
        end
    end
    assign top    = top_q;
    assign second = sec_q;

    generate
        if (SD > 2) begin : g_below
            // The ids below second. Every push writes the old second
            // (stale when it is 0: c_q says which slots count) and every
            // pop of a non-empty stack steps back, so the slots stay in
            // order.
            localparam RD = SD - 2;
            localparam PW = RD > 1 ? $clog2(RD) : 1;
            localparam integer  RD1  = RD - 1;
            localparam [PW-1:0] LAST = RD1[PW-1:0];
            // a few ids: LUT RAM, never a block RAM; iCE40 has no LUT RAM
            // (TRC_ICE40): there Yosys folds the registered read address
            // into two block RAMs, fewer LUTs than flip-flops would take
`ifndef TRC_ICE40
            (* ram_style = "distributed" *)
`endif
            reg [W-1:0]  mem [0:RD-1];
            reg [PW-1:0] wp_q, rp_q;
            wire [PW-1:0] wp_n = wp_q == LAST ? {PW{1'b0}} : wp_q + 1'b1;
            wire [PW-1:0] rp_p = rp_q == {PW{1'b0}} ? LAST : rp_q - 1'b1;
            always @* below = mem[rp_q];
            always @(posedge clk) begin
                if (en && push)
                    mem[wp_q] <= sec_q;
                if (rst) begin
                    wp_q <= {PW{1'b0}};
                    rp_q <= LAST;
                end else if (!en) begin
                    // hold
                end else if (push) begin
                    wp_q <= wp_n;
                    rp_q <= wp_q;
                end else if (pop && ne_q) begin
                    wp_q <= rp_q;
                    rp_q <= rp_p;
                end
            end
        end else begin : g_regs_only
            always @* below = {W{1'b0}};
        end
    endgenerate

endmodule

`resetall
