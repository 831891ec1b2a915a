// trc_wholes: the whole-record counts of trc_mpcore's time-stampers (the
// TIME_EXT and LOST records still to write after a long wait for room,
// docs/rtl.md), for all CPUs in one memory, served in turn. A whole count
// grows at most once in 2^NT - 1 ticks or 2^VAL_W - 1 drops, and falls
// only by a record written, so one adder that serves one count a clock
// keeps them all: a CPU's TIME_EXT count, then its LOST count, then the
// next CPU's. The time-stamper served (wx_slot or wl_slot) may write a
// whole record of that kind and learns whether it was the last (w_one); a
// step up asked for between its clocks waits in a flag. Each time-stamper
// keeps its rests and its "a whole record waits" flags, so its decisions
// need nothing from here but the clock it is served. The step itself is
// written a clock later, from registers: the time-stamper's decision of
// this clock reaches a flop, not the adder's carry chain. The memory needs no
// reset: the first round after reset writes every word zero, the count
// read for it held at zero by the synchronous reset of the register after
// the memory's own (a flip-flop's reset costs no logic).
// Parameters:
//   NCPU   - time-stampers served, >= 2 (each count one clock in 2 NCPU)
//   NT     - trc_tstamp's NT (2^NT - 1 >= 2 NCPU: ticks between two steps
//            up of a whole TIME_EXT count)
//   VAL_W  - trc_tstamp's VAL_W (likewise for drops)
//   DT_W   - ticks counted, > NT: whole TIME_EXT counts of DT_W - NT bits
//   DROP_W - drops counted, > VAL_W: whole LOST counts of DROP_W - VAL_W bits
// A count at its largest stays there (time and LOST counts are exact below
// 2^DT_W - 2^(DT_W-NT) ticks and 2^DROP_W - 2^(DROP_W-VAL_W) drops).
`default_nettype none
`include "trc_format.vh"

module trc_wholes #(
    parameter NCPU   = 2,
    parameter NT     = 23,
    parameter VAL_W  = 16,
    parameter DT_W   = 48,
    parameter DROP_W = 48
) (
    input  wire            clk,
    input  wire            rst,
    input  wire [NCPU-1:0] wx_inc,   // per CPU: whole TIME_EXT count plus one
    input  wire [NCPU-1:0] wx_dec,   // minus one (only in its clock)
    input  wire [NCPU-1:0] wl_inc,   // whole LOST count plus one
    input  wire [NCPU-1:0] wl_dec,   // minus one (only in its clock)
    output wire [NCPU-1:0] wx_slot,  // the TIME_EXT count served this clock
    output wire [NCPU-1:0] wl_slot,  // the LOST count served (one of all 2 NCPU)
    output wire            w_one     // the count served is 1
);

    localparam XW    = DT_W - NT;
    localparam LX    = DROP_W - VAL_W;
    localparam W     = XW > LX ? XW : LX;
    localparam SLOTS = 2 * NCPU;
    localparam CW    = $clog2(SLOTS);
    localparam integer LAST_I = SLOTS - 1;
    localparam [CW-1:0] LAST = LAST_I[CW-1:0];

    generate
        `TRC_PARAM_CHECK(NCPU >= 2 && NCPU <= 128, g_bad_ncpu, trc_bad_param_NCPU,
                         "trc_wholes: NCPU must be 2..128")
        `TRC_PARAM_CHECK((NT >= 16 || (1 << NT) - 1 >= SLOTS) &&
                         (VAL_W >= 16 || (1 << VAL_W) - 1 >= SLOTS), g_bad_nt,
                         trc_bad_param_NT_VAL_W,
                         "trc_wholes: 2^NT - 1 and 2^VAL_W - 1 must be >= 2 NCPU")
        `TRC_PARAM_CHECK(XW >= 1 && LX >= 1, g_bad_w, trc_bad_param_DT_W_DROP_W,
                         "trc_wholes: DT_W must be > NT and DROP_W > VAL_W")
    endgenerate

    function [CW-1:0] next_slot(input [CW-1:0] s);
        next_slot = s == LAST ? {CW{1'b0}} : s + 1'b1;
    endfunction

    // sc_q: the count served now, CPU sc_q >> 1's, TIME_EXT (bit 0 clear)
    // or LOST. Its word was read into the memory's register two clocks ago
    // and into c_q one ago; its step is taken into st_* at the end of this
    // clock and written back at the end of the next, and its next read is
    // SLOTS - 3 >= 1 clocks after that.
    reg  [CW-1:0]   sc_q;
    wire [CW-1:0]   sc_n  = next_slot(sc_q);
    wire [CW-1:0]   sc_nn = next_slot(sc_n);
    reg             cl_q;           // the first round after reset: words cleared
    reg  [NCPU-1:0] px_q, pl_q;     // a step up asked for, waiting for its clock
    // (no LUT RAM on the iCE40: a block, which costs no logic for the
    // select.) The word written (the count of a clock ago) is never the
    // word read (that of two clocks ahead), so no bypass.
`ifdef TRC_ICE40
    (* ram_style = "block" *)
`endif
    (* no_rw_check *)
    reg  [W-1:0]    mem [0:SLOTS-1];
    reg  [W-1:0]    rd_q;           // the memory's own read register
    reg  [W-1:0]    c_q;            // the count served

    wire            lost = sc_q[0];
    wire [NCPU-1:0] sel  = {{(NCPU-1){1'b0}}, 1'b1} << sc_q[CW-1:1];
    assign wx_slot = lost ? {NCPU{1'b0}} : sel;
    assign wl_slot = lost ? sel : {NCPU{1'b0}};
    // its steps: a waiting step up, or one now (never both, nor a step up
    // with a step down now: see trc_tstamp), or a step down now
    wire pw = |((lost ? pl_q : px_q) & sel);
    wire up = pw || |((lost ? wl_inc : wx_inc) & sel);
    wire dn = |((lost ? wl_dec : wx_dec) & sel);
    // the count a whole record is written from: the word and a waiting step
    assign w_one = c_q[W-1:1] == {(W-1){1'b0}} && (c_q[0] != pw);

    // the step, a clock later: +1 or -1 in one adder (as trc_tstamp's own
    // counts), +0 (the word cleared) in the first round; the carry out of
    // the count's width on +1 says it is at its largest, and then it stays
    reg          st_up, st_dn, st_cl;
    reg [W-1:0]  st_c;
    reg [CW-1:0] st_a;
    wire [W:0] sum = {1'b0, st_c} + {1'b0, {(W-1){st_dn}}, st_dn || !st_cl};
    wire       sat = st_a[0] ? sum[LX] : sum[XW];
    wire       we  = st_cl || (st_up != st_dn && !(st_up && sat));

    always @(posedge clk) begin
        if (we)
            mem[st_a] <= sum[W-1:0];
        rd_q <= mem[sc_nn];
        st_c <= c_q;
        st_a <= sc_q;
        if (rst) begin
            st_up <= 1'b0;
            st_dn <= 1'b0;
            st_cl <= 1'b0;
        end else begin
            st_up <= up;
            st_dn <= dn;
            st_cl <= cl_q;
        end
    end

    always @(posedge clk) begin
        // (the words of the first round are not yet written)
        if (rst || (cl_q && sc_n != {CW{1'b0}}))
            c_q <= {W{1'b0}};
        else
            c_q <= rd_q;
        if (rst) begin
            sc_q <= {CW{1'b0}};
            cl_q <= 1'b1;
            px_q <= {NCPU{1'b0}};
            pl_q <= {NCPU{1'b0}};
        end else begin
            sc_q <= sc_n;
            cl_q <= cl_q && sc_q != LAST;
            px_q <= (px_q | wx_inc) & ~wx_slot;
            pl_q <= (pl_q | wl_inc) & ~wl_slot;
        end
    end

`ifdef TRC_ASSERT
    always @(posedge clk) begin
        if (!rst) begin
            assert ((wx_dec & ~wx_slot) == {NCPU{1'b0}} && (wl_dec & ~wl_slot) == {NCPU{1'b0}})
                `TRC_ELSE("%m: a whole count falls outside its clock");
            assert ((px_q & wx_inc) == {NCPU{1'b0}} && (pl_q & wl_inc) == {NCPU{1'b0}})
                `TRC_ELSE("%m: a second step up before the first was taken");
            assert ((wx_inc & wx_dec) == {NCPU{1'b0}} && (wl_inc & wl_dec) == {NCPU{1'b0}})
                `TRC_ELSE("%m: a step up and down at once");
            assert (!we || st_a != sc_nn)
                `TRC_ELSE("%m: a word read in the clock it is written");
            assert (!cl_q || (!up && !dn))
                `TRC_ELSE("%m: a step in the first round after reset");
            assert (!dn || c_q != {W{1'b0}} || pw)
                `TRC_ELSE("%m: a whole record written with none counted");
        end
    end
`endif

endmodule

`resetall
