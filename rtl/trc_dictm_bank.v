// trc_dictm_bank: the entries of trc_dictm's banks (NB >= 1; one per CPU of
// a multi-CPU stream). A write stores val into entry g of bank bank_w for
// each set bit g of chg; clr resets every bank (a SYNC, or reset); ent is
// bank_r's entries, read asynchronously, and vld says which of them hold a
// stored key (the others read as their reset values in trc_dictm).
//   REGB = 1: registers cleared to ent_init, and a select of bank_r's; vld
//             all ones (trc_dictm says for which banks and devices).
//             From 4 banks on, key is compared with every bank's entries
//             (in halves: eqh the bits of HI, eql the others) and bank_r's
//             compares are selected: two bits an entry instead of W. With
//             2 banks the select of the entries costs less (measured; 3
//             go the same way): then eqh and eql compare with ent.
//   REGB = 0: entry g of every bank in one NB-word LUT RAM (ECP5's
//             TRELLIS_DPR16X4, Xilinx RAM16X1D). Not
//             cleared at once: a flag per bank and entry says that it
//             holds a stored key; clr clears the flags.
// Parameters: N entries of W bits; NB banks, bank numbers BW bits wide.
`default_nettype none

module trc_dictm_bank #(
    parameter N    = 7,
    parameter W    = 16,
    parameter NB   = 1,
    parameter BW   = 1,
    parameter REGB = 1,
    parameter [W-1:0] HI = {W{1'b0}}
) (
    input  wire            clk,
    input  wire            clr,      // every bank to its reset values
    input  wire [N-1:0]    chg,      // the entries written (at most one)
    input  wire [BW-1:0]   bank_w,   // ... of this bank
    input  wire [W-1:0]    val,      // ... with this value
    input  wire [BW-1:0]   bank_r,   // the bank read
    input  wire [N*W-1:0]  ent_init, // the entries' reset values
    output wire [N*W-1:0]  ent,      // bank_r's entries
    output wire [N-1:0]    vld,      // ... which of them hold a stored key
    input  wire [W-1:0]    key,      // REGB = 1: compared with them
    output wire [N-1:0]    eqh,      // ... equal in the bits of HI
    output wire [N-1:0]    eql       // ... and in the others
);

    localparam NW = N * W;
    integer j;
    genvar g, h;
    generate
        if (REGB) begin : g_reg
            reg [NB*NW-1:0] ent_q;          // bank b at [b*NW +: NW]
            reg [NW-1:0]    ent_b;
            always @* begin
                ent_b = {NW{1'b0}};
                for (j = 0; j < NB; j = j + 1)
                    ent_b = ent_b | ({NW{NB == 1 || bank_r == j[BW-1:0]}} &
                                     ent_q[j*NW +: NW]);
            end
            for (h = 0; h < NB; h = h + 1) begin : g_bank
                wire [BW-1:0] hb = h;
                for (g = 0; g < N; g = g + 1) begin : g_ent
                    always @(posedge clk) begin
                        if (clr)
                            ent_q[h*NW + g*W +: W] <= ent_init[g*W +: W];
                        else if (chg[g] && (NB == 1 || bank_w == hb))
                            ent_q[h*NW + g*W +: W] <= val;
                    end
                end
            end
            assign ent = ent_b;
            assign vld = {N{1'b1}};
            for (g = 0; g < N; g = g + 1) begin : g_cmp
                if (NB >= 4) begin : g_each
                    reg [NB-1:0] hb_e, lb_e;     // the compares of every bank
                    always @* begin
                        for (j = 0; j < NB; j = j + 1) begin
                            hb_e[j] = ((key ^ ent_q[j*NW + g*W +: W]) & HI) == {W{1'b0}};
                            lb_e[j] = ((key ^ ent_q[j*NW + g*W +: W]) & ~HI) == {W{1'b0}};
                        end
                    end
                    assign eqh[g] = hb_e[bank_r];
                    assign eql[g] = lb_e[bank_r];
                end else begin : g_one
                    assign eqh[g] = ((key ^ ent_b[g*W +: W]) & HI) == {W{1'b0}};
                    assign eql[g] = ((key ^ ent_b[g*W +: W]) & ~HI) == {W{1'b0}};
                end
            end
        end else begin : g_ram
            wire unused_init = ^{ent_init, key};   // a flag, not a reset, clears here
            assign eqh = {N{1'b0}};
            assign eql = {N{1'b0}};
            reg  [NB*N-1:0] vld_q;          // bank b, entry g at [b*N + g]
            reg  [N-1:0]    vld_b;          // the flags of bank_r
            always @* begin
                vld_b = {N{1'b0}};
                for (j = 0; j < NB; j = j + 1)
                    vld_b = vld_b | ({N{bank_r == j[BW-1:0]}} & vld_q[j*N +: N]);
            end
            assign vld = vld_b;
            always @(posedge clk) begin
                for (j = 0; j < NB; j = j + 1)
                    if (clr)
                        vld_q[j*N +: N] <= {N{1'b0}};
                    else if (bank_w == j[BW-1:0])
                        vld_q[j*N +: N] <= vld_q[j*N +: N] | chg;
            end
            // Yosys maps so shallow a memory to flip-flops and a select on
            // Xilinx devices unless told (ECP5 takes its 16x4 LUT RAM
            // either way)
            for (g = 0; g < N; g = g + 1) begin : g_ent
                wire [W-1:0] rd;
                if (NB > 2) begin : g_lut
                    (* ram_style = "distributed" *)
                    reg [W-1:0] mem [0:NB-1];
                    always @(posedge clk)
                        if (chg[g] && !clr)
                            mem[bank_w] <= val;
                    assign rd = mem[bank_r];
                end else begin : g_auto
                    reg [W-1:0] mem [0:NB-1];
                    always @(posedge clk)
                        if (chg[g] && !clr)
                            mem[bank_w] <= val;
                    assign rd = mem[bank_r];
                end
                assign ent[g*W +: W] = rd;
            end
        end
    endgenerate

endmodule
