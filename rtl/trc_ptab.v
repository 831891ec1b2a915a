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
// With FLAGS_BRAM the flags live in a block RAM of rows instead (tables of
// 2048 entries and more, whose flags would take hundreds of LUT RAMs), read
// with the entry: one more write is then forwarded for the row, as for the
// entry.
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
    input  wire [SK-1:0] waddr,   // must be the entry read at the last ld
    input  wire [W-1:0]  wdata,
    output wire [W-1:0]  rraw,    // the RAM's word ...
    output wire [W-1:0]  rfwd,    // ... or a write after the read (rhit)
    output wire          rhit,
    output wire          rvalid   // the entry is rhit ? rfwd : rraw; else zero
);

    localparam N = 1 << SK;

    // The writes of the last two lds: w1 (its RAM write is under way,
    // repeated every clock until the next ld) and w2 (written, perhaps
    // during the read at ra_q).
    reg [SK-1:0] w1_addr_q, w2_addr_q;
    reg          w1_q, w2_q;
    reg [W-1:0]  w1_data_q, w2_data_q;
    always @(posedge clk) begin
        if (ld) begin
            w1_addr_q <= waddr;
            w1_data_q <= wdata;
            w2_addr_q <= w1_addr_q;
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
    // is never used (forwarding), and no_rw_check keeps Yosys from
    // building bypass logic for it.
    (* no_rw_check *)
    reg [W-1:0] mem [0:N-1];
    reg [W-1:0] mem_q;
    always @(posedge clk) begin
        if (w1_q)
            mem[w1_addr_q] <= w1_data_q;
        if (ld)
            mem_q <= mem[raddr];
    end

    // The entry at ra_q now: the RAM's word, unless w1 or w2 went there.
    // Its valid flag lives in a small LUT RAM of rows, with a fresh flop
    // per row: a SYNC clears only the 2^LB row flops, and a write writes
    // its whole row (into a stale row: its own flag 1, the others 0).
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
    wire [NC-1:0] ra_flg;
    // Flag storage, written a whole row at a time (w1_row_q at w1_row).
    // LUT RAM: one 1-bit RAM per flag of a row, all written together (one
    // write enable per row: iCE40 flops, which these become there, share
    // their clock enable across a logic block), read at ra_q now. Block
    // RAM: rows read at raddr on ld, with the entry, so the write that was
    // under way then (w2) is forwarded too (w2_row_q).
    reg  [NC-1:0] w2_row_q;
    reg  [LB-1:0] w2_row;
    genvar c;
    generate
        if (FLAGS_BRAM != 0) begin : g_fbram
            (* no_rw_check *)
            reg [NC-1:0] fmem [0:NR-1];
            reg [NC-1:0] fmem_q;
            always @(posedge clk) begin
                if (w1_q)
                    fmem[w1_row] <= w1_row_q;
                if (ld)
                    fmem_q <= fmem[raddr[LB-1:0]];
            end
            assign ra_flg = fresh_q[ra_row] ? fmem_q : {NC{1'b0}};
        end else begin : g_flut
            for (c = 0; c < NC; c = c + 1) begin : g_col
                reg flg [0:NR-1];
                always @(posedge clk)
                    if (w1_q)
                        flg[w1_row] <= w1_row_q[c];
                assign ra_flg[c] = fresh_q[ra_row] && flg[ra_row];
            end
        end
    endgenerate
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
    wire w1_hit = w1_q && w1_addr_q == ra_q;
    wire w2_hit = w2_q && w2_addr_q == ra_q;

    // ... and after this ld's write or clear. row_q is the flags' row of
    // the entry at the last ld's ra_q, exact: every write and clear before
    // it folded in, a whole row at a time. The entry written at this ld
    // (waddr) is that entry, so its row as written is row_q with its flag
    // set, with no second read of the flags.
    reg  [NC-1:0] row_q;
    wire          w0_hit = wpend && waddr == ra_q;
    wire [NC-1:0] w0_bit = {{(NC-1){1'b0}}, 1'b1} << waddr[SK-1:LB];
    wire [NC-1:0] w0_new = row_q | w0_bit;
    reg  [HB-1:0] rhi_q;
    reg           hit_q;
    reg  [W-1:0]  raw_q, fwd_q;
    wire w2_row_hit = FLAGS_BRAM != 0 && w2_q && w2_row == ra_row;
    always @(posedge clk)
        if (ld) begin
            raw_q    <= mem_q;
            fwd_q    <= w0_hit ? wdata : w1_hit ? w1_data_q : w2_data_q;
            rhi_q    <= ra_q[SK-1:LB];
            hit_q    <= w0_hit || w1_hit || w2_hit;
            w1_row_q <= w0_new;
            w2_row_q <= w1_row_q;
            w2_row   <= w1_row;
            row_q    <= cpend ? {NC{1'b0}} :
                        wpend && waddr[LB-1:0] == ra_row ? w0_new :
                        w1_q && w1_row == ra_row ? w1_row_q :
                        c1_q ? {NC{1'b0}} :
                        w2_row_hit ? w2_row_q : ra_flg;
        end

`ifdef TRC_ASSERT
    // The write at an ld goes to the entry read at the ld before: row_q's.
    reg [SK-1:0] ra1_q;
    always @(posedge clk) begin
        if (ld)
            ra1_q <= ra_q;
        if (!rst && ld && wpend)
            assert (waddr == ra1_q) else $error("%m: write to an entry not read");
    end
`endif
    assign rvalid = row_q[rhi_q];
    assign rraw   = raw_q;
    assign rfwd   = fwd_q;
    assign rhit   = hit_q;

endmodule

`resetall
