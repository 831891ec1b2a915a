// trc_packer_prop: formal harness for trc_packer (yosys-smtbmc), read with
// -DTRC_ASSERT so that the packer's own checks (registered flags in step
// with the state, a record never overlaps the pending bits, a stalled beat
// stays) are proven with the harness's.
// The environment drives the input as the coder's output stage (trc_piece)
// does: a record of 1..MAXLEN bits, right-aligned, zero above its length,
// with s_endm1 = phase + length - 1 where the phase is the stream position
// mod LW since the last flush (a flush restarts it at 0); every input holds
// while s_ready is low (the coder's stages move on s_ready only). The output
// side may stall at will.
// Properties (each checked in every step from reset):
//   - AXI-Stream: a stalled output beat (tdata, tkeep, tlast) stays;
//   - tkeep is never empty and contiguous from the first byte (the MSB);
//     a word with a partial tkeep has tlast;
//   - fill level: the bits accepted and not yet sent, counted from the
//     handshakes, never exceed FILL (and never go below zero);
//   - the tracked bit (-DTRACK): the stream bit at a free-chosen position k
//     comes out at position k, unchanged (a pad bit as 0), only after it
//     was accepted, and a word ends with tlast exactly when its last kept
//     bit ends a flush (a flush's last data or pad bit). Since k is free,
//     this holds for every bit: none is lost, reordered, duplicated or
//     invented, and tlast comes only on a flush.
// With -DTRC_INDUCT (k-induction): the packer's own invariants, and the link
// to them: its phase and stream positions (formal-only ports) equal the ones
// kept here, and the tracked bit is in flight exactly when its position lies
// between the counts. The tracked bit is re-armed each time position k (mod
// 2^CW) comes again, so "sent once" holds per pass, for runs of any length.
// Parameters: OUT_W, MAXLEN, LW, EW as in trc_packer (small for the solver);
// CW - width of the stream position counters (mod 2^CW; 2^CW must exceed
// twice FILL so a position in flight is unambiguous); 10, the width of the
// packer's formal position ports.
`default_nettype none

module trc_packer_prop #(
    parameter OUT_W  = 8,
    parameter MAXLEN = 16,
    parameter LW     = 16,
    parameter EW     = 5,
    parameter CW     = 10
) (
    input wire              clk,
    input wire              rst,
    input wire [MAXLEN-1:0] s_bits,
    input wire [EW-1:0]     s_len,       // the record's length, 1..MAXLEN
    input wire              s_flush,
    input wire              s_valid,
    input wire              m_axis_tready
);
    localparam KW  = OUT_W / 8;
    localparam LWL = $clog2(LW);
    // bits in flight at most: stages a and b (a record each), the pending
    // lane, the spare lane and the output register (a lane each), with a
    // flush's padding (under 8 bits) in each of the two records
    localparam integer FILL = 3 * LW + 2 * (MAXLEN + 7);
    localparam [CW-1:0] FILL_C = FILL[CW-1:0], NEAR_C = FILL_C - 16;

    wire [EW-1:0]      s_endm1;
    wire               s_ready;
    wire [OUT_W-1:0]   m_axis_tdata;
    wire [KW-1:0]      m_axis_tkeep;
    wire               m_axis_tlast, m_axis_tvalid;
    wire [LWL-1:0]     f_phase;
    wire [9:0]         f_nin, f_nout, f_k;  // the module's formal ports (CW = 10)
    wire               f_kfl, f_kval, f_kfe;

    trc_packer #(.OUT_W(OUT_W), .MAXLEN(MAXLEN), .LW(LW), .EW(EW)) dut (
        .clk(clk), .rst(rst),
        .s_bits(s_bits), .s_endm1(s_endm1), .s_flush(s_flush),
        .s_valid(s_valid), .s_ready(s_ready),
        .m_axis_tdata(m_axis_tdata), .m_axis_tkeep(m_axis_tkeep),
        .m_axis_tlast(m_axis_tlast), .m_axis_tvalid(m_axis_tvalid),
        .m_axis_tready(m_axis_tready), .f_phase(f_phase),
        .f_nin(f_nin), .f_nout(f_nout), .f_k(f_k), .f_kfl(f_kfl), .f_kval(f_kval),
        .f_kfe(f_kfe)
    );

    reg init_q = 1'b1;
    always @(posedge clk) init_q <= 1'b0;
    always @* if (init_q) assume (rst);

    // ---- the environment: the coder's phase
    reg  [LWL-1:0] ph_q;
    wire [EW-1:0]  ph_e = {{(EW-LWL){1'b0}}, ph_q};
    assign s_endm1 = ph_e + s_len - 1'b1;
    wire [EW-1:0]  end_e = ph_e + s_len;
    wire acc = !rst && s_valid && s_ready;
    wire m_fire = m_axis_tvalid && m_axis_tready;
    always @(posedge clk) begin
        if (rst)
            ph_q <= {LWL{1'b0}};
        else if (acc)
            ph_q <= s_flush ? {LWL{1'b0}} : end_e[LWL-1:0];
    end

    reg         past_valid_q, past_hold_q;
    reg [MAXLEN-1:0] past_bits_q;
    reg [EW-1:0] past_len_q;
    reg         past_flush_q, past_sv_q;
    initial past_valid_q = 1'b0;
    always @(posedge clk) begin
        past_valid_q <= 1'b1;
        past_hold_q  <= !rst && !s_ready;
        past_bits_q  <= s_bits;
        past_len_q   <= s_len;
        past_flush_q <= s_flush;
        past_sv_q    <= s_valid;
    end
    always @* begin
        assume (s_len != {EW{1'b0}} && s_len <= MAXLEN);
        assume ((s_bits >> s_len) == {MAXLEN{1'b0}});
        if (past_valid_q && !rst && past_hold_q)
            assume (s_bits == past_bits_q && s_len == past_len_q &&
                    s_flush == past_flush_q && s_valid == past_sv_q);
    end

    // ---- stream positions from the handshakes: bits accepted (a flush
    // rounded up to its byte), bits sent
    reg  [CW-1:0] nin_q, nout_q;
    wire [CW-1:0] len_c  = {{(CW-EW){1'b0}}, s_len};
    wire [CW-1:0] nin_r  = nin_q + len_c;
    wire [CW-1:0] n7     = {{(CW-3){1'b0}}, 3'd7};
    wire [CW-1:0] nin_f  = (nin_r + n7) & ~n7;
    wire [CW-1:0] nin_d  = s_flush ? nin_f : nin_r;
    reg  [CW-1:0] nkeep;
    integer b;
    always @* begin
        nkeep = {CW{1'b0}};
        for (b = 0; b < KW; b = b + 1)
            nkeep = nkeep + {{(CW-1){1'b0}}, m_axis_tkeep[b]};
    end
    wire [CW-1:0] nout_d = nout_q + (nkeep << 3);
    always @(posedge clk) begin
        if (rst) begin
            nin_q  <= {CW{1'b0}};
            nout_q <= {CW{1'b0}};
        end else begin
            if (acc)
                nin_q <= nin_d;
            if (m_fire)
                nout_q <= nout_d;
        end
    end
    wire [CW-1:0] fill = nin_q - nout_q;

    reg             past_stall_q;
    reg [OUT_W-1:0] past_data_q;
    reg [KW-1:0]    past_keep_q;
    reg             past_last_q;
    always @(posedge clk) begin
        past_stall_q <= !rst && m_axis_tvalid && !m_axis_tready;
        past_data_q  <= m_axis_tdata;
        past_keep_q  <= m_axis_tkeep;
        past_last_q  <= m_axis_tlast;
    end
    wire [KW-1:0] nk = ~m_axis_tkeep;

    always @* begin
        if (past_valid_q && !rst) begin
`ifdef TRC_INDUCT
            // the link for k-induction: the module's stages leave the phase
            // that the coder keeps, and its stream positions are the ones
            // counted here from the handshakes
            assert (f_phase == ph_q && f_nin == nin_q && f_nout == nout_q);
`endif
            if (past_stall_q)
                assert (m_axis_tvalid && m_axis_tdata == past_data_q &&
                        m_axis_tkeep == past_keep_q && m_axis_tlast == past_last_q);
            if (m_axis_tvalid) begin
                // tkeep: some bytes, the first ones (the MSBs), no gap
                assert (m_axis_tkeep != {KW{1'b0}} && (nk & (nk + 1'b1)) == {KW{1'b0}});
                assert (m_axis_tlast || &m_axis_tkeep);
            end
`ifdef TRACK
            assert (fill <= FILL_C);
`endif
        end
    end

`ifdef TRACK
    // ---- the tracked bit at stream position k
    // verilator lint_off UNDRIVEN
    (* anyconst *) reg [CW-1:0] k;            // free, fixed for the run
    // verilator lint_on UNDRIVEN
    wire [CW-1:0] off  = k - nin_q;            // k within the record offered
    wire [CW-1:0] span = nin_d - nin_q;        // the record with its padding
    wire [CW-1:0] ko   = k - nout_q;           // k within the word sent
    wire [CW-1:0] hi_i = len_c - 1'b1 - off;   // its bit in s_bits
    wire [CW-1:0] hi_o = OUT_W - 1 - ko;       // its bit in the word
    wire [MAXLEN-1:0] ONE_I = 1;
    wire [OUT_W-1:0]  ONE_O = 1;
    wire          k_rec = acc && off < span;
    wire          k_snd = !rst && m_fire && ko < (nkeep << 3);
    reg           k_in_q, k_out_q, k_val_q, k_fe_q;
    always @(posedge clk) begin
        if (rst) begin
            k_in_q  <= 1'b0;
            k_out_q <= 1'b0;
        end else begin
            if (k_rec) begin
                // position k again, 2^CW bits on (the one before is sent:
                // fill stays under 2^CW): a new tracked bit
                k_in_q  <= 1'b1;
                k_out_q <= 1'b0;
                k_val_q <= off < len_c && (s_bits & (ONE_I << hi_i)) != {MAXLEN{1'b0}};
                k_fe_q  <= s_flush && off == span - 1'b1;
            end
            if (k_snd)
                k_out_q <= 1'b1;
        end
    end
    always @* begin
        if (past_valid_q && !rst) begin
            if (k_snd) begin
                // accepted before, sent once, unchanged, and the word ends at
                // k with tlast exactly when k ends a flush
                assert (k_in_q && !k_out_q &&
                        ((m_axis_tdata & (ONE_O << hi_o)) != {OUT_W{1'b0}}) == k_val_q);
                assert ((m_axis_tlast && ko == (nkeep << 3) - 1'b1) == k_fe_q);
            end
            // a bit is sent only after it was accepted; it is in flight
            // exactly when its position is between the counts
            if (k_out_q)
                assert (k_in_q);
`ifdef TRC_INDUCT
            assert ((k_in_q && !k_out_q) == (ko < fill));
`endif
        end
    end
    assign f_k    = k;
    assign f_kfl  = k_in_q && !k_out_q;
    assign f_kval = k_val_q;
    assign f_kfe  = k_fe_q;
`else
    assign f_k    = 10'd0;
    assign f_kfl  = 1'b0;
    assign f_kval = 1'b0;
    assign f_kfe  = 1'b0;
`endif

`ifdef COVER
    // reachability: each property's interesting case happens
    reg seen_tail_q, seen_full_q;
    always @(posedge clk) begin
        if (rst) begin
            seen_tail_q <= 1'b0;
            seen_full_q <= 1'b0;
        end else begin
            if (acc && s_flush && end_e > LW)
                seen_tail_q <= 1'b1;           // a flush spilling into a lane
            if (acc && s_len == MAXLEN[EW-1:0] && end_e > LW)
                seen_full_q <= 1'b1;           // a longest record over a lane end
        end
    end
    always @* begin
        if (past_valid_q && !rst) begin
            cover (past_stall_q && m_fire);                         // a stall ends
            if (KW > 1)                                             // partial last word
                cover (m_fire && m_axis_tlast && !m_axis_tkeep[0]);
            cover (m_fire && m_axis_tlast && seen_tail_q);          // a spilled flush ends
            cover (m_fire && seen_full_q);
            cover (acc && !s_flush && m_fire && !m_axis_tlast);     // streaming
            cover (fill >= NEAR_C);                                 // near the bound
        end
    end
`endif
endmodule

`resetall
