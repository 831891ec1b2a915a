// trc_ptab: the stack mode predictor table, 2^SK entries of W bits in one
// block RAM, with a valid bit per entry (a small LUT RAM and a flop per
// row of flags) so that a SYNC clears the whole table in one clock. An
// invalid entry (rvalid low) is zero, the format's reset entry.
// Reads take two clocks, so that the RAM's output (slow on every FPGA) only
// goes into registers: the address is given one stage ahead of the record
// that uses the entry (the address depends on the call stack only, not on
// table contents); the entry comes out as two registers loaded by ld (the
// RAM's word and a forwarded write, rhit choosing), so that the user can
// work on both and select last; rvalid is a lookup among registers loaded
// by ld. Writes reach the RAM a clock late,
// from registers, so the entry's update logic does not drive the RAM's
// pins either. Three writes can fall between a read and its load; all are
// forwarded, so the result never depends on the RAM's read-during-write
// behaviour. The forwarding select comes after the registers, so the
// RAM's output meets no logic.
// The user works on the entry in two stages: the entry comes out as the
// writes up to the last ld left it; the write of the next ld (the record
// ahead of the entry's, leaving the user's last stage) comes out a ld later
// as a register (phit, pdata), so that the only loop through the table,
// one record's update into the next record's entry, starts and ends at
// registers with only the update's logic between. A write stores the
// flags row of its entry as the write before it left it.
// With FLAGS_BRAM the flags live in a block RAM of rows instead (tables of
// 2048 entries and more, whose flags would take hundreds of LUT RAMs), read
// with the entry: the row comes out of its RAM's output register beside the
// entry, with the row as the writes and clears since left it (one more
// write forwarded, as for the entry) and the fresh flag, and the user's
// flag and the next write's row select last. The RAMs are trc_ram: the
// output register is the block RAM's own on ECP5.
// Parameters:
//   SK - address bits (table index), 4..12
//   W  - entry width
//   FLAGS_BRAM - 0: flags in LUT RAM (rows of 8 at SK 9); 1: in a block RAM
//        of rows of 32
`default_nettype none

module trc_ptab #(
    parameter SK = 9,
    parameter W  = 36,
    parameter FLAGS_BRAM = 0
) (
    input  wire          clk,
    input  wire          rst,
    input  wire [SK-1:0] raddr,   // read on ld: the entry for the next ld
    // ld: the user's stages move. rraw/rfwd/rhit/rvalid become the entry
    // read at the last ld; the user's current record leaves, and does what it has pending:
    // a write (wpend) or a SYNC's clear of every entry (cpend), never both.
    // Between lds nothing changes, so ld only enables (it follows the
    // output's ready: the slowest input) and the RAM's read address does
    // not depend on it.
    input  wire          ld,
    input  wire          wpend,
    input  wire          cpend,
    input  wire [SK-1:0] waddr,   // must be the entry read two lds before
    input  wire [W-1:0]  wdata,
    output wire [W-1:0]  rraw,    // the RAM's word ...
    output wire [W-1:0]  rfwd,    // ... or a write after the read (rhit)
    output wire          rhit,
    output wire          rvalid,  // the entry is rhit ? rfwd : rraw; else zero
    // One ld later, the write of the ld between: phit, it went to the
    // entry read at the last ld, and pdata is its word (the user folds in
    // a clear at that ld itself).
    output wire          phit,
    output wire [W-1:0]  pdata
);


    // The writes of the last two lds: w1 (its RAM write is under way,
    // repeated every clock until the next ld) and w2 (written, perhaps
    // during the read at ra_q).
    reg [SK-1:0] w1_addr_q;             // (w2's address: only its compares)
    reg          w1_q, w2_q;
    reg [W-1:0]  w1_data_q, w2_data_q;
    always @(posedge clk) begin
        if (ld) begin
            w1_addr_q <= waddr;
            w1_data_q <= wdata;
            w2_data_q <= w1_data_q;
        end
        if (rst) begin
            w1_q <= 1'b0;
            w2_q <= 1'b0;
        end else if (ld) begin
            w1_q <= wpend;
            w2_q <= w1_q;
        end
    end

    // A read of the address being written returns what the RAM likes: it
    // is never used (forwarding). raw_q is the RAM's output register.
    wire [W-1:0] raw_q;
    trc_ram #(.AW(SK), .W(W)) u_mem (
        .clk(clk), .we(w1_q), .waddr(w1_addr_q), .wdata(w1_data_q),
        .re(ld), .raddr(raddr), .oe(ld), .rdata(raw_q)
    );

    // The entry at ra_q now: the RAM's word, unless w1 or w2 went there.
    // Its valid flag lives in a RAM of rows, with a fresh flop per row: a
    // SYNC clears only the 2^LB row flops, and a write writes its whole row
    // (into a stale row: its own flag 1, the others 0).
    // Entry i is flag i[SK-1:LB] of row i[LB-1:0]. Like the RAM, rows and
    // fresh flops follow w1 and the clear of the last ld (c1_q) a clock
    // late, from registers (ld, the slowest signal, reaches none of them),
    // repeated until the next ld, which is harmless: nothing else writes
    // the row meanwhile.
    localparam HB = FLAGS_BRAM != 0 ? 5 : SK > 6 ? SK - 6 : 1, LB = SK - HB;
    localparam NR = 1 << LB, NC = 1 << HB;
    reg  [NR-1:0] fresh_q;
    reg  [SK-1:0] ra_q;
    reg           c1_q;
    reg  [NC-1:0] w1_row_q;               // w1's row as it is written
    wire [LB-1:0] w1_row = w1_addr_q[LB-1:0];
    wire [LB-1:0] ra_row = ra_q[LB-1:0];
    // Flag storage, written a whole row at a time (w1_row_q at w1_row).
    always @(posedge clk) begin
        if (rst || c1_q)
            fresh_q <= {NR{1'b0}};
        else if (w1_q)
            fresh_q[w1_row] <= 1'b1;
        if (rst)
            c1_q <= 1'b0;
        else if (ld)
            c1_q <= cpend;
        if (rst)
            ra_q <= {SK{1'b0}};
        else if (ld)
            ra_q <= raddr;
    end
    // w1 and w2 against ra_q: all three load at the ld, so their address
    // compares are made then (w1e_q, w2e_q: the whole address; w1re_q,
    // w2re_q: the row), and the forwarding select after the registers
    // meets flops only.
    reg  w1e_q, w2e_q, w1re_q, w2re_q;
    wire w1_hit = w1_q && w1e_q;
    wire w2_hit = w2_q && w2e_q;
    // The writer at an ld is the record read three lds before, at the ld
    // before it the entry presented (rb_q): its address compares are made
    // then, against the address that ld reads.
    reg  w0_eq_q, w0_req_q;
    wire w0_hit = wpend && w0_eq_q;
    wire [NC-1:0] w0_bit = {{(NC-1){1'b0}}, 1'b1} << waddr[SK-1:LB];
    reg  [HB-1:0] rhi_q;
    reg           hit_q;
    reg  [W-1:0]  fwd_q;
    // row_w: the row of the entry read at the last ld, as the writes up to
    // that ld's left it; the writer (a ld later) writes its row as the
    // write before it left it (row_p: that write's row if it went to the
    // same row, zero after a clear).
    wire [NC-1:0] row_w;
    reg  [SK-1:0] rb_q;
    reg  [NC-1:0] rowp_q;
    reg           phit_q, prow_q;
    wire [NC-1:0] row_p  = c1_q ? {NC{1'b0}} : prow_q ? w1_row_q : rowp_q;
    wire [NC-1:0] w0_new = row_p | w0_bit;
    always @(posedge clk)
        if (ld) begin
            fwd_q    <= w0_hit ? wdata : w1_hit ? w1_data_q : w2_data_q;
            rhi_q    <= ra_q[SK-1:LB];
            hit_q    <= w0_hit || w1_hit || w2_hit;
            w1_row_q <= w0_new;
            rb_q     <= ra_q;
            w1e_q    <= waddr == raddr;
            w2e_q    <= w1_addr_q == raddr;
            w1re_q   <= waddr[LB-1:0] == raddr[LB-1:0];
            w2re_q   <= w1_addr_q[LB-1:0] == raddr[LB-1:0];
            w0_eq_q  <= rb_q == raddr;
            w0_req_q <= rb_q[LB-1:0] == raddr[LB-1:0];
            rowp_q   <= row_w;
            phit_q   <= wpend && waddr == rb_q;
            prow_q   <= wpend && waddr[LB-1:0] == rb_q[LB-1:0];
        end
    genvar c;
    generate
        if (FLAGS_BRAM != 0) begin : g_fbram
            // The row read with the entry (frow, as of the read), whether
            // its row is fresh now (fr_q), and the row as the writes and
            // clears since the read left it (rowf, when rowf_hit_q): the
            // rows of the last three writes stay in registers (w1_row_q,
            // w2_row_q, w3_row_q) and flags loaded at the ld say which
            // one it is (none: zero), so that the row compares end in
            // flops, not in the select of a whole row. The entry's flag
            // in them is an AND-OR with one-hots of its column, one per
            // row it may be in (none set: not that row), loaded at the ld
            // too: no 32-way select after the flops.
            wire [NC-1:0] frow;
            reg  [NC-1:0] w2_row_q, w3_row_q;
            reg           fr_q, rowf_hit_q, rf0_q, rf1_q, rf2_q;
            reg  [NC-1:0] oh0_q, oh1_q, oh2_q, ohf_q;
            wire [NC-1:0] col = {{(NC-1){1'b0}}, 1'b1} << ra_q[SK-1:LB];
            trc_ram #(.AW(LB), .W(NC)) u_flags (
                .clk(clk), .we(w1_q), .waddr(w1_row), .wdata(w1_row_q),
                .re(ld), .raddr(raddr[LB-1:0]), .oe(ld), .rdata(frow)
            );
            wire w0r = wpend && w0_req_q;
            wire w1r = w1_q && w1re_q;
            wire w2r = w2_q && w2re_q;
            wire rh  = cpend || w0r || w1r || c1_q || w2r;
            wire rf0 = !cpend && w0r;
            wire rf1 = !cpend && !w0r && w1r;
            wire rf2 = !cpend && !w0r && !w1r && !c1_q && w2r;
            always @(posedge clk)
                if (ld) begin
                    w2_row_q   <= w1_row_q;
                    fr_q       <= fresh_q[ra_row];
                    w3_row_q   <= w2_row_q;
                    rowf_hit_q <= rh;
                    rf0_q      <= rf0;
                    rf1_q      <= rf1;
                    rf2_q      <= rf2;
                    oh0_q      <= {NC{rf0}} & col;
                    oh1_q      <= {NC{rf1}} & col;
                    oh2_q      <= {NC{rf2}} & col;
                    ohf_q      <= {NC{!rh}} & col;
                end
            // (w1_row_q is w0_new since the ld)
            wire [NC-1:0] rowf = rf0_q ? w1_row_q : rf1_q ? w2_row_q :
                                 rf2_q ? w3_row_q : {NC{1'b0}};
            assign row_w  = rowf_hit_q ? rowf : fr_q ? frow : {NC{1'b0}};
            assign rvalid = |(oh0_q & w1_row_q | oh1_q & w2_row_q | oh2_q & w3_row_q) ||
                            fr_q && |(ohf_q & frow);
            wire unused_rhi = ^rhi_q;
        end else begin : g_flut
            // One 1-bit LUT RAM per flag of a row, all written together (one
            // write enable per row: iCE40 flops, which these become there,
            // share their clock enable across a logic block), read at ra_q
            // now. row_w is the flags' row of the entry at the last ld's
            // ra_q, exact: every write and clear before it folded in, a
            // whole row at a time: the row read (rflg_q) or the row of one
            // of the last two writes (w1_row_q, w2_row_q), flags loaded at
            // the ld saying which (so the row compare ends in a flop).
            wire [NC-1:0] ra_flg;
            reg  [NC-1:0] rflg_q, w2_row_q;
            reg           rz_q, r0_q, r1_q;
            for (c = 0; c < NC; c = c + 1) begin : g_col
                reg flg [0:NR-1];
                always @(posedge clk)
                    if (w1_q)
                        flg[w1_row] <= w1_row_q[c];
                assign ra_flg[c] = fresh_q[ra_row] && flg[ra_row];
            end
            wire w0r = wpend && w0_req_q;
            wire w1r = w1_q && w1re_q;
            wire unused_w2re = w2re_q;
            always @(posedge clk)
                if (ld) begin
                    rflg_q   <= ra_flg;
                    w2_row_q <= w1_row_q;
                    r0_q     <= !cpend && w0r;
                    r1_q     <= !cpend && !w0r && w1r;
                    rz_q     <= cpend || !w0r && !w1r && c1_q;
                end
            // (w1_row_q is w0_new since the ld)
            assign row_w  = r0_q ? w1_row_q : r1_q ? w2_row_q : rz_q ? {NC{1'b0}} : rflg_q;
            assign rvalid = row_w[rhi_q];
        end
    endgenerate

`ifdef TRC_ASSERT
    // The write at an ld goes to the entry presented two lds before (the
    // writer's).
    reg [SK-1:0] rc_q;
    always @(posedge clk) begin
        if (ld)
            rc_q <= rb_q;
        if (!rst && ld && wpend)
            assert (waddr == rc_q) else $error("%m: write to an entry not read");
    end
`endif
    assign rraw   = raw_q;
    assign rfwd   = fwd_q;
    assign rhit   = hit_q;
    assign phit   = phit_q;
    assign pdata  = w1_data_q;

endmodule

`resetall
