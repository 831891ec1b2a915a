// trc_lz4_emit: writes LZ4 sequences as bytes: token, literal length
// extension, the literals (from the literal FIFO), offset, match length
// extension. One byte per clock while the output FIFO has room.
//   WIN_BITS: offset width
//   LIT_AW:   literal run width
`default_nettype none

module trc_lz4_emit #(
    parameter integer WIN_BITS = 12,  // offset width
    parameter integer LIT_AW   = 9    // literal run width
) (
    input  wire                clk,
    input  wire                rst,
    // commands (first word fall through)
    input  wire                cmd_valid,
    output reg                 cmd_ready,
    input  wire                cmd_last,
    input  wire [LIT_AW-1:0]   cmd_lits,
    input  wire [WIN_BITS-1:0] cmd_off,
    input  wire [15:0]         cmd_mlen,
    // literal bytes (first word fall through)
    input  wire                lit_valid,
    input  wire [7:0]          lit_data,
    output reg                 lit_ready,
    // output bytes
    input  wire                out_full,
    output reg                 out_we,
    output reg  [7:0]          out_data
);
  localparam [2:0] S_IDLE = 3'd0, S_TOK = 3'd1, S_LEXT = 3'd2, S_LIT = 3'd3,
                   S_OFF0 = 3'd4, S_OFF1 = 3'd5, S_MEXT = 3'd6;

  reg [2:0]          st_q, st_d;
  reg                last_q, last_d;
  reg [LIT_AW-1:0]   lits_q, lits_d;   // literals still to copy
  reg [15:0]         off_q, off_d;
  reg [15:0]         mc_q, mc_d;       // match length - 4
  reg [15:0]         rem_q, rem_d;     // extension value still to write

  wire [LIT_AW-1:0]  lit15 = 15;
  wire [15:0]        lrem0 = {{(16-LIT_AW){1'b0}}, cmd_lits - lit15};
  wire [3:0]         lnib = (lits_q >= lit15) ? 4'hF : lits_q[3:0];
  wire [3:0]         mnib = last_q ? 4'h0 : (mc_q >= 16'd15) ? 4'hF : mc_q[3:0];

  always @* begin
    st_d = st_q;
    last_d = last_q;
    lits_d = lits_q;
    off_d = off_q;
    mc_d = mc_q;
    rem_d = rem_q;
    cmd_ready = 1'b0;
    lit_ready = 1'b0;
    out_we = 1'b0;
    out_data = 8'd0;
    case (st_q)
      S_IDLE: begin
        if (cmd_valid) begin
          cmd_ready = 1'b1;
          last_d = cmd_last;
          lits_d = cmd_lits;
          off_d = {{(16-WIN_BITS){1'b0}}, cmd_off};
          mc_d = cmd_mlen - 16'd4;
          rem_d = lrem0;
          st_d = S_TOK;
        end
      end
      S_TOK: begin
        out_data = {lnib, mnib};
        if (!out_full) begin
          out_we = 1'b1;
          if (lits_q >= lit15) st_d = S_LEXT;
          else if (lits_q != 0) st_d = S_LIT;
          else st_d = last_q ? S_IDLE : S_OFF0;
        end
      end
      S_LEXT, S_MEXT: begin
        out_data = (rem_q >= 16'd255) ? 8'd255 : rem_q[7:0];
        if (!out_full) begin
          out_we = 1'b1;
          if (rem_q >= 16'd255) rem_d = rem_q - 16'd255;
          else st_d = (st_q == S_LEXT) ? S_LIT : S_IDLE;
        end
      end
      S_LIT: begin
        out_data = lit_data;
        if (!out_full && lit_valid) begin
          out_we = 1'b1;
          lit_ready = 1'b1;
          lits_d = lits_q - 1'b1;
          if (lits_q == 1) st_d = last_q ? S_IDLE : S_OFF0;
        end
      end
      S_OFF0: begin
        out_data = off_q[7:0];
        if (!out_full) begin
          out_we = 1'b1;
          st_d = S_OFF1;
        end
      end
      S_OFF1: begin
        out_data = off_q[15:8];
        if (!out_full) begin
          out_we = 1'b1;
          rem_d = mc_q - 16'd15;
          st_d = (mc_q >= 16'd15) ? S_MEXT : S_IDLE;
        end
      end
      default: st_d = S_IDLE;
    endcase
  end

  always @(posedge clk) begin
    if (rst) st_q <= S_IDLE;
    else st_q <= st_d;
  end

  always @(posedge clk) begin
    last_q <= last_d;
    lits_q <= lits_d;
    off_q <= off_d;
    mc_q <= mc_d;
    rem_q <= rem_d;
  end
endmodule

`resetall
