// trc_lz4_match: LZ4 match finder and greedy parser, one input byte per clock.
// A 12-byte lookahead line feeds an H3 hash of 4 bytes, a 4096-entry table of
// W-bit positions (read-then-write), and an 8-bank history RAM that returns
// 8 bytes at any address per clock: the candidate's bytes, or while a match
// runs, the next 8 bytes of the match source (one read per 8 positions).
// The parser emits literals, sequence commands and block sizes; the model is
// model/lz4/trc_lz4.c, the rules are in docs/lz4.md.
//   WIN_BITS: history window 2^WIN_BITS bytes (10..16)
//   OUT_AW:   output FIFO address bits; a block holds <= 2^(OUT_AW-1) bytes
//   LIT_AW:   literal FIFO address bits; a literal run <= 2^(LIT_AW-1) bytes
`default_nettype none

module trc_lz4_match #(
    parameter integer WIN_BITS = 12,  // history window 2^WIN_BITS bytes
    parameter integer OUT_AW   = 11,  // output FIFO address bits
    parameter integer LIT_AW   = 9    // literal FIFO address bits
) (
    input  wire                clk,
    input  wire                rst,
    // input bytes; tlast ends a frame
    input  wire [7:0]          s_axis_tdata,
    input  wire                s_axis_tvalid,
    output wire                s_axis_tready,
    input  wire                s_axis_tlast,
    // downstream has room for one literal, one command and one block size
    input  wire                room,
    // literal bytes, in order
    output wire                lit_we,
    output wire [7:0]          lit_data,
    // sequence commands: last = literal-only closing sequence of a block
    output wire                cmd_we,
    output reg                 cmd_last,
    output reg  [LIT_AW-1:0]   cmd_lits,
    output reg  [WIN_BITS-1:0] cmd_off,
    output reg  [15:0]         cmd_mlen,
    // block sizes for the frame writer; fend = last block of the frame
    output wire                blk_we,
    output reg                 blk_fend,
    output reg  [OUT_AW-1:0]   blk_size
);
  localparam integer WB = WIN_BITS;
  localparam integer HB = 12;                    // hash bits: 4096 entries
  localparam integer K = 11;                     // parser stage
  localparam [WB-1:0] MAXOFF = {WB{1'b1}} - 15;  // 2^WB - 16
  localparam [OUT_AW-1:0] BLIM = (1 << (OUT_AW - 1)) - 16;
  localparam [LIT_AW-1:0] LMAX = (1 << (LIT_AW - 1)) - 16;
  localparam [15:0] ML_MAX = 16'hFFFF;
  // H3 hash: bit j = parity(v & H3_COL[j]), v = {b3, b2, b1, b0}
  localparam [32*HB-1:0] H3_COL = {
      32'h55773DF9, 32'h9F563677, 32'hE0507998, 32'h51756A74,
      32'h3E969CC8, 32'h4F864560, 32'hE55C7BA2, 32'hD891B31D,
      32'hD855C8D4, 32'hCCDA2DDF, 32'hED4B3B6B, 32'h8009CBC2};

  // Parameter check: the message (Verilator, Yosys), then a module that does
  // not exist, which stops Verilator, Yosys and Icarus alike.
  generate
    if (WIN_BITS < 10 || WIN_BITS > 16 || OUT_AW < 8 || OUT_AW > 14 ||
        LIT_AW < 7 || LIT_AW > 12) begin : g_bad_param
`ifndef __ICARUS__
      $error("trc_lz4_match: needs WIN_BITS 10..16, OUT_AW 8..14, LIT_AW 7..12");
`endif
      trc_lz4_bad_param u_stop ();
    end
  endgenerate

  // ---------------------------------------------------------------- control
  reg         clr_q, clr_d;           // clearing the hash table after reset
  reg [HB-1:0] clra_q, clra_d;
  reg         drain_q, drain_d;       // tlast taken: flush the line
  reg         fstart_q, fstart_d;     // next byte starts a frame
  wire        take = s_axis_tvalid && s_axis_tready;
  wire        adv = !clr_q && room && (drain_q || s_axis_tvalid);

  assign s_axis_tready = !clr_q && room && !drain_q;

  // ------------------------------------------------------- lookahead line
  // sr[s] holds position tpos - s; v = a byte, l = its tlast
  reg [7:0]  sr_q[0:K];
  reg [K:0]  v_q, l_q;
  reg [WB-1:0] tpos_q, tpos_d;        // position of sr[0] (mod 2^WB)
  reg [WB:0]   tful_q, tful_d;        // position of sr[0], saturating
  integer i;

  always @* begin
    tpos_d = tpos_q + 1'b1;
    tful_d = (&tful_q) ? tful_q : tful_q + 1'b1;
    if (take && fstart_q) begin
      tpos_d = 0;
      tful_d = 0;
    end
  end

  // ------------------------------------------------------------ hash, table
  wire [31:0] hv = {sr_q[2], sr_q[3], sr_q[4], sr_q[5]};
  reg [HB-1:0] h_d, h_q;              // stage 6
  integer j;
  always @* begin
    for (j = 0; j < HB; j = j + 1) h_d[j] = ^(hv & H3_COL[32*j +: 32]);
  end

  localparam [WB-1:0] P6 = 6, P7 = 7, P8 = 8;
  localparam [WB:0]   F8 = 8;
  wire [WB-1:0] pos6 = tpos_q - P6;
  wire [WB-1:0] pos7 = tpos_q - P7;
  wire [WB-1:0] pos8 = tpos_q - P8;
  wire [WB-1:0] tbl_rd;               // stage 7: candidate position

  trc_lz4_ram #(.AW(HB), .DW(WB)) u_tbl (
      .clk(clk),
      .we(clr_q || (adv && v_q[6])),
      .waddr(clr_q ? clra_q : h_q),
      .wdata(clr_q ? {WB{1'b0}} : pos6),
      .re(adv), .raddr(h_q), .rdata(tbl_rd)
  );

  // stage 7 -> 8: offset of the candidate; stage 8 -> 9: its validity
  wire [WB-1:0] ofs7 = pos7 - tbl_rd;
  reg  [WB-1:0] c8_q, o8_q, o9_q, o10_q, o11_q;
  wire          cv8 = v_q[8] && (o8_q != 0) && (o8_q <= MAXOFF) &&
                      ({1'b0, o8_q} + F8 <= tful_q);
  reg           cv9_q, cv10_q, cv11_q;

  // ---------------------------------------------------------------- history
  // 8 banks: byte at position p lives in bank p[2:0], word p >> 3
  reg  [8:4]    ck_q;                 // chunk read due at this stage
  reg           ck9_q, ck10_q, ck11_q;
  reg  [WB-1:0] off_q, off_d;         // offset of the running match
  wire [WB-1:0] ra = ck_q[8] ? pos8 - off_q : c8_q;
  reg  [2:0]    ra9_q;
  wire [7:0]    hb_rd[0:7];
  wire [7:0]    adj = ~(8'hFF << ra[2:0]);  // banks below ra[2:0]: next word
  genvar b;
  generate
    for (b = 0; b < 8; b = b + 1) begin : g_bank
      wire [WB-4:0] word = ra[WB-1:3] + {{(WB-4){1'b0}}, adj[b]};
      trc_lz4_ram #(.AW(WB - 3), .DW(8)) u_hist (
          .clk(clk),
          .we(take && (tpos_d[2:0] == b)), .waddr(tpos_d[WB-1:3]),
          .wdata(s_axis_tdata),
          .re(adv), .raddr(word), .rdata(hb_rd[b])
      );
    end
  endgenerate

  // stage 9 -> 10: rotate into source order; stage 10 -> 11: compare
  reg [63:0] hd10_q;
  reg [7:0]  eq11_q;
  reg [63:0] rot9;
  reg [7:0]  eq10;
  reg [2:0]  rk;
  integer k;
  always @* begin
    for (k = 0; k < 8; k = k + 1) begin
      rk = ra9_q + k[2:0];
      rot9[8*k +: 8] = hb_rd[rk];
      eq10[k] = (hd10_q[8*k +: 8] == sr_q[10-k]);
    end
  end

  // ----------------------------------------------------------------- parser
  reg               mode_q, mode_d;   // 1: inside a match
  reg [15:0]        mlen_q, mlen_d;
  reg [6:0]         sv_q, sv_d;       // compare bits of the next positions
  reg [LIT_AW-1:0]  lr_q, lr_d;       // pending literal run
  reg [OUT_AW-1:0]  bc_q, bc_d;       // block bytes so far (pending closed)
  reg [7:0]         lx_q, lx_d;       // literal length ext: count mod 255
  reg [7:0]         mx_q, mx_d;       // match length ext: count mod 255
  reg               bfin_q, bfin_d;   // closing the block
  reg               sched;            // chunk read due 8 positions ahead

  wire       x_v = v_q[K];
  wire       last = l_q[K];
  wire       start_ok = v_q[0];       // x + 11 exists
  wire       ext_ok = v_q[6];         // x + 5 exists
  wire       e = ck11_q ? eq11_q[0] : sv_q[0];
  wire [6:0] nsv = ck11_q ? eq11_q[7:1] : {1'b0, sv_q[6:1]};

  assign lit_data = sr_q[K];

  // The block-closing condition of the state before x, from registers only
  // (the same as testing the state after x-1, as the model does).
  reg  bcge_q, lrge_q, mlmax_q;       // those tests, made on the _d values
  wire bfin = bfin_q || bcge_q || lrge_q || mlmax_q;
  // registered tests of mlen_q: < 4, == 18, >= 19 (for the extension steps)
  reg  mlt4_q, m18_q, mge19_q;
  wire cont = mode_q && (mlt4_q || (e && ext_ok && !bfin));
  // literal of x: run length before it, extension step of the run after it
  wire             lit0 = mode_q || (lr_q == 0);
  wire [LIT_AW-1:0] lr0 = mode_q ? {LIT_AW{1'b0}} : lr_q;
  wire             lstep = !mode_q && ((lr_q == 14) || ((lr_q >= 15) && (lx_q == 8'd254)));
  wire             mstep = m18_q || (mge19_q && (mx_q == 8'd254));
  wire             start = !ck11_q && cv11_q && (&eq11_q[3:0]) && start_ok && !bfin;
  wire [LIT_AW-1:0] lr1 = lr0 + 1'b1;
  wire             close = (bfin && lr1 >= 12) || last;
  localparam [OUT_AW-1:0] B1 = 1, B2 = 2;
  wire [OUT_AW-1:0] bc_lit = bc_q + {{(OUT_AW-1){1'b0}}, lit0} + B1 +
                             {{(OUT_AW-1){1'b0}}, lstep};

  // FIFO writes: the parser's decisions, taken when the line advances
  reg  lit_r, cmd_r, blk_r;
  assign lit_we = adv && lit_r;
  assign cmd_we = adv && cmd_r;
  assign blk_we = adv && blk_r;

  always @* begin
    mode_d = mode_q;
    off_d = off_q;
    mlen_d = mlen_q;
    sv_d = sv_q;
    lr_d = lr_q;
    bc_d = bc_q;
    lx_d = lx_q;
    mx_d = mx_q;
    bfin_d = bfin_q;
    sched = 1'b0;
    lit_r = 1'b0;
    cmd_r = 1'b0;
    cmd_last = 1'b0;
    cmd_lits = lr_q;
    cmd_off = off_q;
    cmd_mlen = mlen_q;
    blk_r = 1'b0;
    blk_fend = last;
    blk_size = bc_lit;
    if (x_v) begin
      bfin_d = bfin;
      if (cont) begin
        // the match goes on through x
        mlen_d = mlen_q + 1'b1;
        sv_d = nsv;
        mx_d = (m18_q || mx_q == 8'd254) ? 8'd0 : mx_q + 1'b1;
        bc_d = bc_q + {{(OUT_AW-1){1'b0}}, mstep};
        sched = ck11_q && (&eq11_q);
      end else begin
        // a match that ended before x is a complete sequence
        cmd_r = mode_q;
        if (start) begin
          mode_d = 1'b1;
          off_d = o11_q;
          mlen_d = 16'd1;
          sv_d = eq11_q[7:1];
          lr_d = lr0;
          bc_d = bc_q + {{(OUT_AW-1){1'b0}}, lit0} + B2;
          sched = &eq11_q;
        end else begin
          mode_d = 1'b0;
          lit_r = 1'b1;
          lr_d = lr1;
          lx_d = (lr0 == 14 || lx_q == 8'd254) ? 8'd0 : lx_q + 1'b1;
          bc_d = bc_lit;
          if (close) begin
            cmd_r = 1'b1;
            cmd_last = 1'b1;
            cmd_lits = lr1;
            blk_r = 1'b1;
            lr_d = 0;
            bc_d = 0;
            bfin_d = 1'b0;
          end
        end
      end
    end
  end

  // ------------------------------------------------------------ sequencing
  wire bcge_d = (bc_d >= BLIM);
  wire lrge_d = (lr_d >= LMAX);
  // the tests of mlen_d = mlen_q + 1 (match goes on) or 1 (match starts)
  wire go_on = x_v && cont, go_start = x_v && !cont && start;
  wire mlmax_d = go_on ? (mlen_q == ML_MAX - 1'b1) : (x_v ? 1'b0 : mlmax_q);
  wire mlt4_d = go_on ? (mlen_q < 16'd3) : (go_start ? 1'b1 : mlt4_q);
  wire m18_d = go_on ? (mlen_q == 16'd17) : (go_start ? 1'b0 : m18_q);
  wire mge19_d = go_on ? (mlen_q >= 16'd18) : (go_start ? 1'b0 : mge19_q);

  always @* begin
    clr_d = clr_q;
    clra_d = clra_q;
    if (clr_q) begin
      clra_d = clra_q + 1'b1;
      if (&clra_q) clr_d = 1'b0;
    end
    drain_d = drain_q;
    fstart_d = fstart_q;
    if (take) fstart_d = 1'b0;
    if (take && s_axis_tlast) drain_d = 1'b1;
    if (adv && x_v && last) begin
      drain_d = 1'b0;
      fstart_d = 1'b1;
    end
  end

  always @(posedge clk) begin
    if (rst) begin
      clr_q <= 1'b1;
      clra_q <= 0;
      drain_q <= 1'b0;
      fstart_q <= 1'b1;
      v_q <= 0;
      l_q <= 0;
      ck_q <= 0;
      ck9_q <= 1'b0;
      ck10_q <= 1'b0;
      ck11_q <= 1'b0;
      cv9_q <= 1'b0;
      cv10_q <= 1'b0;
      cv11_q <= 1'b0;
      mode_q <= 1'b0;
      lr_q <= 0;
      bc_q <= 0;
      bfin_q <= 1'b0;
      bcge_q <= 1'b0;
      lrge_q <= 1'b0;
      mlmax_q <= 1'b0;
      tful_q <= 0;
    end else begin
      clr_q <= clr_d;
      clra_q <= clra_d;
      drain_q <= drain_d;
      fstart_q <= fstart_d;
      if (adv) begin
        v_q <= {v_q[K-1:0], !drain_q};
        l_q <= {l_q[K-1:0], !drain_q && s_axis_tlast};
        ck_q <= {ck_q[7:4], sched};
        ck9_q <= ck_q[8];
        ck10_q <= ck9_q;
        ck11_q <= ck10_q;
        cv9_q <= cv8;
        cv10_q <= cv9_q;
        cv11_q <= cv10_q;
        mode_q <= mode_d;
        lr_q <= lr_d;
        bc_q <= bc_d;
        bfin_q <= bfin_d;
        bcge_q <= bcge_d;
        lrge_q <= lrge_d;
        mlmax_q <= mlmax_d;
        tful_q <= tful_d;
      end
    end
  end

`ifdef TRC_ASSERT
  // AXI-Stream input: nothing is taken while a FIFO might overflow or the
  // table is being cleared; a frame's last byte ends the frame's last block
  always @(posedge clk) begin
    if (!rst && take && (clr_q || !room)) $error("%m: byte taken without room");
    if (!rst && adv && x_v && last && !blk_we) $error("%m: frame ended inside a block");
  end
`endif

  // datapath registers: no reset
  always @(posedge clk) begin
    if (adv) begin
      sr_q[0] <= drain_q ? 8'd0 : s_axis_tdata;
      for (i = 1; i <= K; i = i + 1) sr_q[i] <= sr_q[i-1];
      tpos_q <= tpos_d;
      h_q <= h_d;
      c8_q <= tbl_rd;
      o8_q <= ofs7;
      o9_q <= o8_q;
      o10_q <= o9_q;
      o11_q <= o10_q;
      ra9_q <= ra[2:0];
      hd10_q <= rot9;
      eq11_q <= eq10;
      off_q <= off_d;
      mlen_q <= mlen_d;
      mlt4_q <= mlt4_d;
      m18_q <= m18_d;
      mge19_q <= mge19_d;
      sv_q <= sv_d;
      lx_q <= lx_d;
      mx_q <= mx_d;
    end
  end
endmodule

`resetall
