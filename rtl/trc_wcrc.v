// trc_wcrc: the check words of a checked stream (docs/format.md 4.10).
// Passes the encoder's words through and closes each unit (its tlast word,
// which ends with END or SYNC): zero bytes up to a multiple of 8 bytes of
// the unit, the unit's record count (s_count, taken with s_count_take as
// the unit's tlast word comes in, and held in a register from there),
// then the unit's CRC-32 (IEEE 802.3, as zlib), each least significant byte
// first. A unit that ends with END (s_count_end) is followed by two closing
// units, each the same count word and the CRC-32 of those 4 bytes alone.
// The last word of the check word (of the second closing unit after an
// END) carries tlast. Every output word is full (tkeep all ones). Line
// rate: one word a clock, plus the words of a unit's zeros, count and CRC,
// at most 15 bytes (at OUT_W = 64 one word), and 16 bytes after an END.
// Parameters:
//   OUT_W - word width: 8, 16, 32 or 64
`default_nettype none
`include "trc_format.vh"

module trc_wcrc #(
    parameter OUT_W = 64
) (
    input  wire               clk,
    input  wire               rst,
    // ---- stream in (bytes outside tkeep are zero, tkeep partial on tlast only)
    input  wire [OUT_W-1:0]   s_axis_tdata,
    input  wire [OUT_W/8-1:0] s_axis_tkeep,
    input  wire               s_axis_tlast,
    input  wire               s_axis_tvalid,
    output wire               s_axis_tready,
    // ---- the count word of the unit being closed (docs/format.md 4.10:
    // reset-state bit, trace records so far), valid before its tlast word
    input  wire [31:0]        s_count,
    input  wire               s_count_end,   // the unit ends with END
    input  wire               s_count_valid,
    output wire               s_count_take,
    // ---- checked stream out
    output wire [OUT_W-1:0]   m_axis_tdata,
    output wire [OUT_W/8-1:0] m_axis_tkeep,
    output wire               m_axis_tlast,
    output wire               m_axis_tvalid,
    input  wire               m_axis_tready
);

    localparam W   = OUT_W / 8;            // bytes a word
    localparam NPW = 8 / W;                // words in 8 bytes
    localparam PW  = NPW > 1 ? $clog2(NPW) : 1;
    localparam NCW = W >= 4 ? 1 : 4 / W;   // words of a check word (W < 8)
    localparam CW  = NCW > 1 ? $clog2(NCW) : 1;

    // ---- parameter check (trc_format.vh): stops every tool
    generate
        `TRC_PARAM_CHECK(OUT_W == 8 || OUT_W == 16 || OUT_W == 32 || OUT_W == 64,
                         g_bad_out_w, trc_bad_param_OUT_W,
                         "trc_wcrc: OUT_W must be 8, 16, 32 or 64")
    endgenerate

    // CRC-32 register after the first nb bytes of d, the first byte in d's
    // top bits (reflected: each byte enters least significant bit first).
    // Used at elaboration only, for the masks below.
    function automatic [31:0] crc_step(input [31:0] c, input [63:0] d, input integer nb);
        integer i, k;
        reg [31:0] r;
        begin
            r = c;
            for (i = 0; i < 8; i = i + 1)
                if (i < nb)
                    for (k = 0; k < 8; k = k + 1)
                        r = (r[0] ^ d[56 - 8 * i + k]) ? ((r >> 1) ^ 32'hEDB88320) : (r >> 1);
            crc_step = r;
        end
    endfunction

    // The step is linear: bit j of the next register is the XOR of the
    // register bits in mask_c and the data bits in mask_d.
    function automatic [31:0] mask_c(input integer j, input integer nb);
        integer i;
        reg [31:0] m, r;
        begin
            for (i = 0; i < 32; i = i + 1) begin
                r = crc_step(32'd1 << i, 64'd0, nb);
                m[i] = |(r & (32'd1 << j));
            end
            mask_c = m;
        end
    endfunction
    function automatic [63:0] mask_d(input integer j, input integer nb);
        integer k;
        reg [63:0] m;
        reg [31:0] r;
        begin
            for (k = 0; k < 64; k = k + 1) begin
                r = crc_step(32'd0, 64'd1 << k, nb);
                m[k] = |(r & (32'd1 << j));
            end
            mask_d = m;
        end
    endfunction

    // The check word's bytes in stream order (least significant first).
    function automatic [31:0] word_le(input [31:0] c);
        word_le = {~c[7:0], ~c[15:8], ~c[23:16], ~c[31:24]};
    endfunction

    localparam [1:0] ST_PASS = 2'd0, ST_ZERO = 2'd1, ST_CNT = 2'd2, ST_CHK = 2'd3;

    reg [1:0]       st_q, st_d;
    reg [PW-1:0]    pos_q, pos_d;     // word within the unit's 8-byte block
    reg [CW-1:0]    cix_q, cix_d;     // word of the check word
    reg [1:0]       rep_q, rep_d;     // 0: the unit; 1, 2: its closing units
    reg [31:0]      crc_q, crc_d;     // CRC register of the unit so far
    reg [OUT_W-1:0] data_q, data_d;
    reg             last_q, last_d, valid_q, valid_d;
    reg             s_ready, take;
    reg [31:0]      cnt_q, cnt_d;     // the count word of the unit being closed
    reg             end_q, end_d;     // ... which ends with END

    wire         load = !valid_q || m_axis_tready;
    // a closing unit comes after the unit (or closing unit) being closed
    wire         more = end_q && rep_q != 2'd2;
    wire [63:0]  s64  = {s_axis_tdata, {(64 - OUT_W){1'b0}}};
    // the count in stream order (least significant byte first), and word
    // cix_q of it (OUT_W < 64), placed as s64 places a word
    wire [31:0]  cnt_le = {cnt_q[7:0], cnt_q[15:8], cnt_q[23:16], cnt_q[31:24]};
    wire [63:0]  cnt_sh = {cnt_le, 32'd0} >> (64 - OUT_W - W * 8 * cix_q);
    wire [63:0]  cnt64  = {cnt_sh[OUT_W-1:0], {(64 - OUT_W){1'b0}}};
    // the CRC steps, each output bit a balanced XOR of masked bits: a word
    // (c_w), a zero word (c_zw), a word of the count (c_cw), and at OUT_W =
    // 64 the whole count after the register (c_c4)
    wire [31:0]  c_w, c_zw, c_cw, c_c4;
    genvar j;
    generate
        for (j = 0; j < 32; j = j + 1) begin : g_crc
            localparam [31:0] MCW = mask_c(j, W);
            localparam [63:0] MDW = mask_d(j, W);
            localparam [31:0] MC4 = mask_c(j, 4);
            localparam [63:0] MD4 = mask_d(j, 4);
            assign c_zw[j] = ^(crc_q & MCW);
            assign c_w[j]  = c_zw[j] ^ (^(s64 & MDW));
            assign c_cw[j] = c_zw[j] ^ (^(cnt64 & MDW));
            assign c_c4[j] = (^(crc_q & MC4)) ^ (^({cnt_le, 32'd0} & MD4));
        end
    endgenerate
    wire [31:0]  chk  = word_le(crc_q);
    localparam integer CLASTI = NCW - 1;
    localparam [CW-1:0] CLAST = CLASTI[CW-1:0]; // the check word's last word
    localparam integer PLASTI = NPW - 1;
    localparam [PW-1:0] PLAST = PLASTI[PW-1:0]; // the last word of an 8-byte block
    // OUT_W = 64: the count and the check word in one word
    wire [63:0] cchk    = {cnt_le, word_le(c_c4)};
    // OUT_W < 64: word cix_q of the check word
    wire [63:0] chk_sh  = {chk, 32'd0} >> (64 - OUT_W - W * 8 * cix_q);
    wire        unused_bits = ^{cchk, chk_sh, cnt_sh, s_axis_tkeep}; // each width uses a part

    always @* begin
        st_d    = st_q;
        pos_d   = pos_q;
        cix_d   = cix_q;
        rep_d   = rep_q;
        crc_d   = crc_q;
        cnt_d   = cnt_q;
        end_d   = end_q;
        data_d  = data_q;
        last_d  = last_q;
        valid_d = valid_q && !m_axis_tready;
        s_ready = 1'b0;
        take    = 1'b0;
        if (load) begin
            case (st_q)
                ST_PASS: begin
                    s_ready = 1'b1;
                    if (s_axis_tvalid) begin
                        valid_d = 1'b1;
                        data_d  = s_axis_tdata;
                        last_d  = 1'b0;
                        crc_d   = c_w;
                        pos_d   = NPW > 1 ? pos_q + 1'b1 : pos_q;
                        // the bytes past tkeep are zero: the unit's zeros
                        // up to the word's end are already in it; the count
                        // word leaves the queue for cnt_q
                        if (s_axis_tlast) begin
                            st_d  = OUT_W == 64 ? ST_CHK
                                  : (pos_q == PLAST ? ST_CNT : ST_ZERO);
                            take  = 1'b1;
                            cnt_d = s_count;
                            end_d = s_count_end;
                        end
                    end
                end
                ST_ZERO: begin
                    valid_d = 1'b1;
                    data_d  = {OUT_W{1'b0}};
                    last_d  = 1'b0;
                    crc_d   = c_zw;
                    pos_d   = NPW > 1 ? pos_q + 1'b1 : pos_q;
                    if (pos_q == PLAST)
                        st_d = ST_CNT;
                end
                ST_CNT: begin // OUT_W < 64: word cix_q of the count
                    valid_d = 1'b1;
                    data_d  = cnt_sh[OUT_W-1:0];
                    last_d  = 1'b0;
                    crc_d   = c_cw;
                    pos_d   = NPW > 1 ? pos_q + 1'b1 : pos_q;
                    cix_d   = cix_q + 1'b1;
                    if (cix_q == CLAST) begin
                        st_d  = ST_CHK;
                        cix_d = {CW{1'b0}};
                    end
                end
                default: begin // ST_CHK
                    valid_d = 1'b1;
                    // the unit's last word: end of the check word, at OUT_W
                    // = 64 the word of the count and the check word
                    last_d = 1'b0;
                    if (OUT_W == 64) begin
                        data_d = cchk[63:64-OUT_W];
                    end else begin
                        data_d = chk_sh[OUT_W-1:0];
                    end
                    pos_d = NPW > 1 ? pos_q + 1'b1 : pos_q;
                    cix_d = cix_q + 1'b1;
                    if (OUT_W == 64 || cix_q == CLAST) begin
                        // after an END, a closing unit follows: the count
                        // word alone, from a fresh CRC register (the same
                        // states, no data)
                        last_d = !more;
                        rep_d  = more ? rep_q + 1'b1 : 2'd0;
                        st_d   = more ? (OUT_W == 64 ? ST_CHK : ST_CNT) : ST_PASS;
                        cix_d  = {CW{1'b0}};
                        crc_d  = 32'hFFFFFFFF;
                        pos_d  = {PW{1'b0}};
                    end
                end
            endcase
        end
    end

    always @(posedge clk) begin
        data_q  <= data_d;
        last_q  <= last_d;
        valid_q <= valid_d;
        st_q    <= st_d;
        pos_q   <= pos_d;
        cix_q   <= cix_d;
        rep_q   <= rep_d;
        crc_q   <= crc_d;
        cnt_q   <= cnt_d;
        end_q   <= end_d;
        if (rst) begin
            valid_q <= 1'b0;
            st_q    <= ST_PASS;
            pos_q   <= {PW{1'b0}};
            cix_q   <= {CW{1'b0}};
            rep_q   <= 2'd0;
            end_q   <= 1'b0;
            crc_q   <= 32'hFFFFFFFF;
        end
    end

    assign s_axis_tready = s_ready;
    assign s_count_take  = take;
    assign m_axis_tdata  = data_q;
    assign m_axis_tkeep  = {W{1'b1}};
    assign m_axis_tlast  = last_q;
    assign m_axis_tvalid = valid_q;

`ifdef TRC_ASSERT
    // AXI-Stream: a word offered is held until taken
    reg past_q;
    always @(posedge clk) begin
        past_q <= !rst && valid_q && !m_axis_tready;
        if (past_q && !rst && !valid_q)
            $error("%m: trc_wcrc: tvalid dropped before tready");
        if (!rst && take && !s_count_valid)
            $error("%m: trc_wcrc: a unit closed before its count was known");
    end
`endif

endmodule

`resetall
