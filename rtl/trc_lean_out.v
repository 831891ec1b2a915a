// trc_lean_out: bit packer and output of the lean encoder. Takes one chunk
// of 1..8 bits a clock (left-aligned) and appends it to the stream: the
// bits waiting for a byte (at most 7, left-aligned in acc) and the chunk
// shifted right by their count make 8 to 15 bits, of which a full byte
// leaves. Bytes gather into OUT_W-bit words (first byte in the MSB) that go
// out through a register and a spare, so that s_ready comes from a flop.
// A flush (the last chunk of END or SYNC) pads the stream with zeros to the
// byte boundary and ends its word with tlast.
// Parameters:
//   OUT_W - output word width: 8, 16, 32 or 64
`default_nettype none

module trc_lean_out #(
    parameter OUT_W = 8
) (
    input  wire               clk,
    input  wire               rst,
    // ---- chunks in
    input  wire [7:0]         s_bits,   // left-aligned; bits after the chunk are 0
    input  wire [3:0]         s_n,      // chunk length, 1..8
    input  wire               s_flush,  // the last chunk of END or SYNC
    input  wire               s_valid,  // only while s_ready
    output reg                s_ready,  // a flop: takes a chunk this clock
    output wire               s_ready_next, // s_ready's next value
    // ---- compressed stream out
    output reg  [OUT_W-1:0]   m_axis_tdata,
    output reg  [OUT_W/8-1:0] m_axis_tkeep,
    output reg                m_axis_tlast,
    output reg                m_axis_tvalid,
    input  wire               m_axis_tready
);

    localparam N  = OUT_W / 8;                 // bytes a word

    // ---- the packer: acc holds cnt bits (left-aligned, zeros after them)
    reg  [7:0]  acc_q, acc_d;
    reg  [2:0]  cnt_q, cnt_d;
    reg         pad_q, pad_d;   // a flush left bits in acc: they go out next
    wire [15:0] x   = {acc_q, 8'd0} | ({s_bits, 8'd0} >> cnt_q);
    wire [3:0]  tot = {1'b0, cnt_q} + s_n;
    reg  [7:0]  byte_o;
    reg         push, last_o;
    // the output register's spare holds a word (the next one waits)
    reg         sv_q, sv_d;

    always @* begin
        acc_d  = acc_q;
        cnt_d  = cnt_q;
        pad_d  = pad_q;
        push   = 1'b0;
        last_o = 1'b0;
        byte_o = x[15:8];
        if (pad_q) begin
            // zeros after the bits make the byte; s_ready is low meanwhile
            byte_o = acc_q;
            if (!sv_q) begin
                push   = 1'b1;
                last_o = 1'b1;
                acc_d  = 8'd0;
                cnt_d  = 3'd0;
                pad_d  = 1'b0;
            end
        end else if (s_valid) begin
            push   = tot[3];
            last_o = s_flush && tot == 4'd8;
            acc_d  = tot[3] ? x[7:0] : x[15:8];
            cnt_d  = tot[2:0];
            pad_d  = s_flush && tot != 4'd8;
        end
    end

    // ---- words: bytes gather in lanes 0 .. N-2 (lane 0 the MSB); the byte
    // that fills a word or ends it (tlast) completes it
    reg  [OUT_W-1:0] word;
    reg  [N-1:0]     keep;
    wire             done_w;
    generate
        if (N == 1) begin : g_byte
            assign done_w = push;
            always @* begin
                word = byte_o;
                keep = 1'b1;
            end
        end else begin : g_word
            localparam GW = $clog2(N);
            localparam integer  NL_I = N - 1;
            localparam [GW-1:0] NL   = NL_I[GW-1:0];
            reg [OUT_W-9:0] g_q;
            reg [GW-1:0]    gi_q;
            reg [N-1:0]     at;     // gi_q one-hot
            integer k;
            assign done_w = push && (gi_q == NL || last_o);
            always @* begin
                for (k = 0; k < N; k = k + 1)
                    at[k] = gi_q == k[GW-1:0];
                word = {OUT_W{1'b0}};
                for (k = 0; k < N; k = k + 1) begin
                    if (at[k])
                        word[OUT_W-8-8*k +: 8] = byte_o;
                    else if (k < N - 1 && k[GW-1:0] < gi_q)
                        word[OUT_W-8-8*k +: 8] = g_q[OUT_W-16-8*k +: 8];
                    keep[N-1-k] = k[GW-1:0] <= gi_q;
                end
            end
            always @(posedge clk) begin
                for (k = 0; k < N - 1; k = k + 1)
                    if (push && at[k])
                        g_q[OUT_W-16-8*k +: 8] <= byte_o;
                if (rst || done_w)
                    gi_q <= {GW{1'b0}};
                else if (push)
                    gi_q <= gi_q + 1'b1;
            end
        end
    endgenerate

    // ---- output register and its spare
    reg [OUT_W-1:0] s_q;
    reg [N-1:0]     sk_q;
    reg             sl_q;
    always @* begin
        sv_d = sv_q;
        if (!m_axis_tvalid || m_axis_tready)
            sv_d = 1'b0;
        else if (done_w)
            sv_d = 1'b1;
    end

    assign s_ready_next = !sv_d && !pad_d;

    always @(posedge clk) begin
        if (!m_axis_tvalid || m_axis_tready) begin
            if (sv_q) begin
                m_axis_tdata <= s_q;
                m_axis_tkeep <= sk_q;
                m_axis_tlast <= sl_q;
            end else begin
                m_axis_tdata <= word;
                m_axis_tkeep <= keep;
                m_axis_tlast <= last_o;
            end
        end else if (done_w) begin
            s_q  <= word;
            sk_q <= keep;
            sl_q <= last_o;
        end
        if (rst) begin
            acc_q         <= 8'd0;
            cnt_q         <= 3'd0;
            pad_q         <= 1'b0;
            sv_q          <= 1'b0;
            m_axis_tvalid <= 1'b0;
            s_ready       <= 1'b0;
        end else begin
            acc_q   <= acc_d;
            cnt_q   <= cnt_d;
            pad_q   <= pad_d;
            sv_q    <= sv_d;
            if (!m_axis_tvalid || m_axis_tready)
                m_axis_tvalid <= sv_q || done_w;
            s_ready <= s_ready_next;
        end
    end

`ifdef TRC_ASSERT
    // A chunk only while ready; the packer's waiting bits are followed by
    // zeros; a stalled output word stays; tkeep is a run of ones from the
    // MSB, all ones unless tlast.
    reg             past_stall_q;
    reg [OUT_W-1:0] past_data_q;
    reg [N-1:0]     past_keep_q;
    reg             past_last_q;
    always @(posedge clk) begin
        past_stall_q <= !rst && m_axis_tvalid && !m_axis_tready;
        past_data_q  <= m_axis_tdata;
        past_keep_q  <= m_axis_tkeep;
        past_last_q  <= m_axis_tlast;
        if (!rst) begin
            assert (!s_valid || s_ready) else $error("%m: chunk while not ready");
            assert (!s_valid || (s_n >= 4'd1 && s_n <= 4'd8 &&
                                 (s_bits & (8'hff >> s_n)) == 8'd0))
                else $error("%m: chunk length out of 1..8 or bits after it");
            assert ((acc_q & (8'hff >> cnt_q)) == 8'd0)
                else $error("%m: bits after the waiting ones");
            assert (!m_axis_tvalid || (m_axis_tkeep[N-1] &&
                    ((~m_axis_tkeep + {{(N-1){1'b0}}, 1'b1}) & ~m_axis_tkeep) ==
                    {N{1'b0}} && (m_axis_tlast || m_axis_tkeep == {N{1'b1}})))
                else $error("%m: tkeep not a run of ones from the MSB");
        end
        if (!rst && past_stall_q)
            assert (m_axis_tvalid && m_axis_tdata == past_data_q &&
                    m_axis_tkeep == past_keep_q && m_axis_tlast == past_last_q)
                else $error("%m: m_axis beat changed while stalled");
    end
`endif

endmodule

`resetall
