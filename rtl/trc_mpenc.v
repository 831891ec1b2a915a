// trc_mpenc: the trc stream encoder for several CPUs (docs/format.md 4.9).
// Raw records of NCPU CPUs in, one AXI-Stream per CPU (tuser: a record of
// the time-stamper, made whole by trc_tstamp_fill after the input register); an
// arbiter takes one record per clock into a single coder whose dictionaries
// are banked by CPU, which writes a CPU switch code before a record of
// another CPU than the last one's; one compressed byte stream out, as trc_enc's. Ports, the
// arbitration rule and timing: docs/rtl.md. Paper mode only.
// Parameters:
//   NT, FID_W, TYPE_W, VAL_W, ND_F, ND_T, ND_V, OUT_W - as in trc_enc
//   NCPU   - CPUs (input ports), 1..8; more than one needs NT + 1 not a power
//            of two (the switch code takes the z values above NT)
//   BURST  - the arbiter serves a CPU for up to BURST records in a row while
//            it has records, then moves on (round robin), 1..2^16
//   INFO_W - derived, do not set: max(1+FID_W, TYPE_W+VAL_W)
`default_nettype none
`include "trc_format.vh"

module trc_mpenc #(
    parameter NT     = 23,
    parameter FID_W  = 15,
    parameter TYPE_W = 7,
    parameter VAL_W  = 16,
    parameter ND_F   = 3,
    parameter ND_T   = 3,
    parameter ND_V   = 3,
    parameter OUT_W  = 64,
    parameter NCPU   = 2,
    parameter BURST  = 16,
    parameter INFO_W = `TRC_INFO_W(FID_W, TYPE_W, VAL_W)
) (
    input  wire                         clk,
    input  wire                         rst,
    // ---- raw records in, CPU k on [k*(1+NT+INFO_W) +: 1+NT+INFO_W]:
    // {os, delta[NT-1:0], info[INFO_W-1:0]}, as trc_enc's s_axis
    input  wire [NCPU*(1+NT+INFO_W)-1:0] s_axis_tdata,
    input  wire [NCPU-1:0]              s_axis_tuser,  // a time-stamper's own
                                                       // record (trc_tstamp_fill)
    input  wire [NCPU-1:0]              s_axis_tvalid,
    output wire [NCPU-1:0]              s_axis_tready,
    // ---- compressed stream out
    output wire [OUT_W-1:0]             m_axis_tdata,
    output wire [OUT_W/8-1:0]           m_axis_tkeep,
    output wire                         m_axis_tlast,
    output wire                         m_axis_tvalid,
    input  wire                         m_axis_tready
);

    localparam REC_W  = 1 + NT + INFO_W;
    localparam NZ     = $clog2(NT + 1);
    localparam CPW    = NCPU > 1 ? $clog2(NCPU) : 0;
    localparam CW     = CPW > 0 ? CPW : 1;
    localparam SWL    = NCPU > 1 ? NZ + `TRC_SW_EXT(NZ, NT, NCPU) : 0;
    localparam FW_C   = ND_F + 1 + FID_W;
    localparam OW_C   = ND_T + TYPE_W + ND_V + VAL_W;
    // the longest coded record: full timestamp, kind bit, escaped payload,
    // and the switch code in front
    localparam MAXLEN = SWL + NZ + NT - 1 + 1 + (FW_C > OW_C ? FW_C : OW_C);
    localparam LENW   = $clog2(MAXLEN + 1);
    localparam MLP2   = 1 << $clog2(MAXLEN);
    localparam LW     = OUT_W > MLP2 ? OUT_W : MLP2;
    localparam EW     = $clog2(LW + MAXLEN);
    localparam BCW    = BURST > 1 ? $clog2(BURST) : 1;
    localparam integer BURST_LAST_I = BURST - 1;
    localparam [BCW-1:0] BURST_LAST = BURST_LAST_I[BCW-1:0];

    // ---- parameter checks (trc_format.vh): each stops every tool
    trc_fmt_check #(.NT(NT), .FID_W(FID_W), .TYPE_W(TYPE_W), .VAL_W(VAL_W), .ND_F(ND_F),
                    .ND_T(ND_T), .ND_V(ND_V), .OUT_W(OUT_W), .INFO_W(INFO_W)) u_fmt_check ();
    generate
        `TRC_PARAM_CHECK(NCPU >= 1 && NCPU <= 8, g_bad_ncpu, trc_bad_param_NCPU,
                         "trc_mpenc: NCPU must be 1..8")
        `TRC_PARAM_CHECK(NCPU == 1 || ((NT + 1) & NT) != 0, g_bad_nt_cpus,
                         trc_bad_param_NT_NCPU,
                         "trc_mpenc: several CPUs need NT + 1 not a power of two")
        `TRC_PARAM_CHECK(BURST >= 1 && BURST <= (1 << 16), g_bad_burst, trc_bad_param_BURST,
                         "trc_mpenc: BURST must be 1..2^16")
    endgenerate

    // ---- arbiter: the CPU being served keeps the coder while it has records
    // and its burst lasts; then the first CPU after it (round robin) with a
    // record. Its decision feeds the input register slice, whose ready is a
    // flop, so no path runs from the coder to the ports; a beat offered and
    // not taken stays offered (its CPU keeps the grant), as AXI-Stream asks.
    reg  [CW-1:0]    cur_q;          // CPU served
    reg  [BCW-1:0]   left_q;         // records left in its burst, minus one
    reg              run_q;          // a burst is on (cleared when it ends)
    reg              hold_q;         // a beat was offered and not taken ...
    reg  [CW-1:0]    hsel_q;         // ... from this CPU
    wire             arb_ready;
    reg  [NCPU-1:0]  grant;
    reg  [CW-1:0]    gsel;
    reg              keep;
    reg  [NCPU-1:0]  above, first_hi, first_all;
    reg              any_hi;
    integer k;
    always @* begin
        keep = run_q && s_axis_tvalid[cur_q];
        // the first requesting CPU above cur_q, else the first of all
        any_hi = 1'b0;
        for (k = 0; k < NCPU; k = k + 1)
            above[k] = s_axis_tvalid[k] && k > cur_q;
        first_hi  = {NCPU{1'b0}};
        first_all = {NCPU{1'b0}};
        for (k = NCPU - 1; k >= 0; k = k - 1) begin
            if (above[k]) begin
                first_hi = {NCPU{1'b0}};
                first_hi[k] = 1'b1;
            end
            if (s_axis_tvalid[k]) begin
                first_all = {NCPU{1'b0}};
                first_all[k] = 1'b1;
            end
        end
        any_hi = |above;
        if (hold_q) begin
            grant = {NCPU{1'b0}};
            grant[hsel_q] = 1'b1;
        end else if (keep) begin
            grant = {NCPU{1'b0}};
            grant[cur_q] = 1'b1;
        end else begin
            grant = any_hi ? first_hi : first_all;
        end
        gsel = {CW{1'b0}};
        for (k = 0; k < NCPU; k = k + 1)
            if (grant[k])
                gsel = k[CW-1:0];
    end

    wire             arb_valid = |s_axis_tvalid;
    wire             arb_fire  = arb_valid && arb_ready;
    // the granted CPU's record, selected by its number: a 2^CW:1 mux per bit
    // (an AND-OR over the one-hot grant took half again as many LUTs on
    // ECP5); without a grant it is CPU 0's, and nothing takes it
    wire [REC_W-1:0] recs [0:NCPU-1];
    genvar g;
    generate
        for (g = 0; g < NCPU; g = g + 1) begin : g_rec
            assign recs[g] = s_axis_tdata[g*REC_W +: REC_W];
        end
    endgenerate
    // (a kept net, so that ABC does not merge the arbiter into the select
    // of each record bit: fewer LUTs on ECP5)
    (* keep *) wire [CW-1:0] gsel_k = gsel;
    wire [REC_W:0] arb_rec = {s_axis_tuser[gsel_k], recs[gsel_k]};  // {tag, record}
    assign s_axis_tready = grant & {NCPU{arb_ready}};

    always @(posedge clk) begin
        hsel_q <= gsel;
        if (rst)
            hold_q <= 1'b0;
        else
            hold_q <= arb_valid && !arb_ready;
        if (rst) begin
            cur_q  <= {CW{1'b0}};
            left_q <= {BCW{1'b0}};
            run_q  <= 1'b0;
        end else if (arb_fire) begin
            cur_q <= gsel;
            if (keep || (hold_q && hsel_q == cur_q && run_q)) begin
                left_q <= left_q - 1'b1;
                run_q  <= left_q != {BCW{1'b0}};
            end else begin
                left_q <= BURST_LAST - 1'b1;
                run_q  <= BURST_LAST != {BCW{1'b0}};
            end
        end else if (!s_axis_tvalid[cur_q] && !hold_q) begin
            run_q <= 1'b0;           // the CPU served ran dry: its burst ends
        end
    end

    // ---- input register slice: {cpu, tag, record}; the record made whole
    // after it (trc_tstamp_fill), beside the coder's bank reads, not on the
    // arbiter's path
    wire [CPW+REC_W:0]   in_beat;
    wire [CPW+REC_W-1:0] in_rec;
    wire                 in_valid, in_ready;
    generate
        if (NCPU > 1) begin : g_tag
            trc_skid #(.W(CPW + REC_W + 1)) u_skid (
                .clk(clk), .rst(rst),
                .s_axis_tdata({gsel, arb_rec}), .s_axis_tvalid(arb_valid),
                .s_axis_tready(arb_ready),
                .m_axis_tdata(in_beat), .m_axis_tvalid(in_valid), .m_axis_tready(in_ready)
            );
            assign in_rec[CPW+REC_W-1:REC_W] = in_beat[CPW+REC_W:REC_W+1];
        end else begin : g_one
            trc_skid #(.W(REC_W + 1)) u_skid (
                .clk(clk), .rst(rst),
                .s_axis_tdata(arb_rec), .s_axis_tvalid(arb_valid), .s_axis_tready(arb_ready),
                .m_axis_tdata(in_beat), .m_axis_tvalid(in_valid), .m_axis_tready(in_ready)
            );
            wire unused_one = &{1'b0, gsel, left_q, run_q, keep, hsel_q};
        end
    endgenerate
    trc_tstamp_fill #(.NT(NT), .VAL_W(VAL_W), .INFO_W(INFO_W)) u_fill (
        .tag(in_beat[REC_W]), .s_rec(in_beat[REC_W-1:0]), .m_rec(in_rec[REC_W-1:0])
    );

    // ---- coder (dictionaries banked by CPU) and packer
    wire [MAXLEN-1:0] cd_bits;
    wire [EW-1:0]     cd_endm1;
    wire              cd_flush, cd_valid, cd_ready;
    trc_coder #(
        .NT(NT), .FID_W(FID_W), .TYPE_W(TYPE_W), .VAL_W(VAL_W),
        .ND_F(ND_F), .ND_T(ND_T), .ND_V(ND_V), .INFO_W(INFO_W),
        .MAXLEN(MAXLEN), .LENW(LENW), .LANE_W(LW), .EW(EW), .NB(NCPU)
    ) u_coder (
        .clk(clk), .rst(rst),
        .s_rec(in_rec), .s_valid(in_valid), .s_ready(in_ready),
        .m_bits(cd_bits), .m_endm1(cd_endm1),
        .m_flush(cd_flush), .m_valid(cd_valid), .m_ready(cd_ready)
    );

    wire unused_rn;                          // the paper mode coder's enable is m_ready
    trc_packer #(.OUT_W(OUT_W), .MAXLEN(MAXLEN), .LW(LW), .EW(EW)) u_packer (
        .clk(clk), .rst(rst),
        .s_bits(cd_bits), .s_endm1(cd_endm1), .s_flush(cd_flush),
        .s_valid(cd_valid), .s_ready(cd_ready), .s_ready_next(unused_rn),
        .m_axis_tdata(m_axis_tdata), .m_axis_tkeep(m_axis_tkeep),
        .m_axis_tlast(m_axis_tlast), .m_axis_tvalid(m_axis_tvalid),
        .m_axis_tready(m_axis_tready)
    );

`ifdef TRC_ASSERT
    // one grant at most, only to a CPU with a record; a CPU's record is
    // taken only with its grant
    always @(posedge clk) begin
        if (!rst) begin
            assert ((grant & (grant - 1'b1)) == {NCPU{1'b0}} &&
                    (grant & ~s_axis_tvalid) == {NCPU{1'b0}} &&
                    (arb_valid == (grant != {NCPU{1'b0}})))
                else $error("%m: arbiter grant not one-hot over the requests");
        end
    end
`endif

endmodule

`resetall
