// trc_tb_directed: short directed test of trc_enc for Icarus (a second
// simulator). Feeds the C model's vectors (build/sim/trc_vec) under LFSR
// stalls on both sides, checks every byte and every tlast, and checks the
// paper's timestamp example (NT = 20, 13 leading zeros: 01101 011010).
// Prints PASS or FAIL. Parameters:
//   OUT_W - encoder output width
//   LEAN  - 1: the lean encoder
//   VEC   - directory holding rec.hex, exp.hex, last.hex, cnt.hex
`default_nettype none

module trc_tb_directed #(
    parameter OUT_W = 16,
    parameter LEAN  = 0,
    parameter VEC   = "build/sim/icarus"
);

    localparam REC_W = 47, KW = OUT_W / 8, MAXREC = 8192, MAXB = 32768;

    reg             clk = 1'b0;
    reg             rst = 1'b1;
    // No initial value: under Icarus an always @* block runs first on an
    // input's change, and the first record (delta 0) must be such a change.
    reg [REC_W-1:0] s_tdata;
    reg             s_tvalid = 1'b0;
    wire            s_tready;
    wire [OUT_W-1:0] m_tdata;
    wire [KW-1:0]   m_tkeep;
    wire            m_tlast, m_tvalid;
    reg             m_tready = 1'b0;

    trc_enc #(.OUT_W(OUT_W), .LEAN(LEAN)) dut (
        .clk(clk), .rst(rst),
        .s_axis_tdata(s_tdata), .s_axis_tvalid(s_tvalid), .s_axis_tready(s_tready),
        .m_axis_tdata(m_tdata), .m_axis_tkeep(m_tkeep), .m_axis_tlast(m_tlast),
        .m_axis_tvalid(m_tvalid), .m_axis_tready(m_tready)
    );

    // The paper's Fig. 4/5 timestamp: 0000000000000 1 011010 -> 01101 011010.
    wire [23:0] ex_code;
    wire [5:0]  ex_len;
    trc_tscode #(.NT(20), .NZ(5), .CW(24), .LW(6)) u_example (
        .clk(clk), .adv(1'b1),
        .delta(20'b0000000000000_1_011010), .code(ex_code), .len(ex_len)
    );

    reg [REC_W-1:0] recs [0:MAXREC-1];
    reg [7:0]       exp_b [0:MAXB-1];
    reg             exp_l [0:MAXB-1];
    reg [31:0]      cnt [0:1];
    integer n_rec, n_b, ri, bi, j, nkeep, errors, cycles;
    reg [15:0] lfsr = 16'hace1;

    always #5 clk = ~clk;

    initial begin
        $readmemh({VEC, "/cnt.hex"}, cnt);
        n_rec = cnt[0];
        n_b = cnt[1];
        $readmemh({VEC, "/rec.hex"}, recs, 0, n_rec - 1);
        $readmemh({VEC, "/exp.hex"}, exp_b, 0, n_b - 1);
        $readmemh({VEC, "/last.hex"}, exp_l, 0, n_b - 1);
        ri = 0;
        bi = 0;
        errors = 0;
        cycles = 0;
        if (n_rec > MAXREC || n_b > MAXB) begin
            $display("FAIL vectors too long");
            $finish;
        end
        repeat (4) @(posedge clk);
        // the timestamp coder's three register stages have taken the delta
        if (ex_code != 24'b01101011010 || ex_len != 6'd11) begin
            $display("FAIL paper example: code %b len %0d", ex_code, ex_len);
            errors = errors + 1;
        end
        @(negedge clk) rst = 1'b0;
    end

    // Drive on the falling edge, away from the sampling edge.
    always @(negedge clk) begin
        if (!rst) begin
            lfsr = {lfsr[14:0], lfsr[15] ^ lfsr[13] ^ lfsr[12] ^ lfsr[10]};
            if (!s_tvalid && ri < n_rec && lfsr[2:0] != 3'd0) begin
                s_tvalid = 1'b1;
                s_tdata  = recs[ri];
            end
            m_tready = lfsr[5:4] != 2'd0;
        end
    end

    always @(posedge clk) begin
        if (!rst) begin
            cycles = cycles + 1;
            if (s_tvalid && s_tready) begin
                ri = ri + 1;
                s_tvalid <= 1'b0;
            end
            if (m_tvalid && m_tready) begin
                nkeep = 0;
                for (j = KW - 1; j >= 0; j = j - 1)
                    if (m_tkeep[j]) nkeep = nkeep + 1;
                for (j = 0; j < nkeep; j = j + 1) begin
                    if (bi >= n_b) begin
                        $display("FAIL extra byte at offset %0d", bi);
                        errors = errors + 1;
                    end else if (m_tdata[OUT_W-1-8*j -: 8] !== exp_b[bi] ||
                                 (m_tlast && j == nkeep - 1) !== exp_l[bi]) begin
                        $display("FAIL byte offset %0d: rtl %h tlast %b, model %h last %b",
                                 bi, m_tdata[OUT_W-1-8*j -: 8], m_tlast, exp_b[bi],
                                 exp_l[bi]);
                        errors = errors + 1;
                    end
                    bi = bi + 1;
                end
            end
            if (errors != 0 || (ri == n_rec && bi == n_b) || cycles > 100 * n_rec) begin
                if (errors == 0 && bi == n_b)
                    $display("PASS OUT_W %0d LEAN %0d records %0d bytes %0d cycles %0d",
                             OUT_W, LEAN, n_rec, n_b, cycles);
                else
                    $display("FAIL OUT_W %0d: %0d of %0d records, %0d of %0d bytes",
                             OUT_W, ri, n_rec, bi, n_b);
                $finish;
            end
        end
    end

endmodule

`resetall
