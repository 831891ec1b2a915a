// trc_lean_ring: one dictionary of the trc format (docs/format.md 4.4) for
// the lean encoder, searched one entry a clock: the 2^ND-1 entries rotate
// past one comparator (entry 0 first, so the first match is the lowest
// address), and a miss takes one more turn to store the key at the write
// pointer. A lookup takes 2^ND-1 clocks, a miss twice that; the lean
// encoder uses it for the OS type and value dictionaries, which code few
// records, and so needs only one comparator and one write multiplexer for
// them instead of one per entry. No flip (the function dictionary, the
// only one with a flip, is trc_lean_dict).
// Parameters:
//   ND - address bits: 2^ND-1 entries, address 2^ND-1 is the escape
//   W  - key width
`default_nettype none

module trc_lean_ring #(
    parameter ND = 3,
    parameter W  = 16
) (
    input  wire          clk,
    input  wire          rst,
    input  wire          look,      // start a lookup; key from the next clock on
    input  wire [W-1:0]  key,       // held until busy falls
    input  wire          clr,       // back to the reset state (not while busy;
                                    // with look: look up in the reset state)
    output reg           busy,      // a lookup is running
    output wire          busy_next, // busy in the next clock
    output reg           hit,       // the last lookup's result, once !busy
    output reg  [ND-1:0] code
);

    localparam S = (1 << ND) - 1;
    localparam [ND-1:0] LAST = S[ND-1:0] - 1'b1;

    // e_q[0] is the entry at address t_q while turning, the rest follow;
    // one turn takes S clocks and leaves every entry where it was
    reg  [W-1:0]  e_q [0:S-1];
    reg  [ND-1:0] t_q, wp_q;
    reg           wr_q;     // the second turn: store the key at wp_q
    reg           busy_d;
    wire          eq   = e_q[0] == key;
    wire          turn = busy;
    wire          put  = wr_q && t_q == wp_q;

    assign busy_next = busy_d;

    always @* begin
        busy_d = busy;
        if (look)
            busy_d = 1'b1;
        else if (busy && t_q == LAST && (wr_q || hit || eq))
            busy_d = 1'b0;
    end

    genvar g;
    generate
        for (g = 0; g < S; g = g + 1) begin : g_e
            localparam [W-1:0] RST_E = g;
            always @(posedge clk) begin
                if (rst || clr)
                    e_q[g] <= RST_E;
                else if (turn)
                    e_q[g] <= g == S - 1 ? (put ? key : e_q[0]) : e_q[(g + 1) % S];
            end
        end
    endgenerate

    always @(posedge clk) begin
        if (look) begin
            t_q  <= {ND{1'b0}};
            hit  <= 1'b0;
            code <= {ND{1'b1}};
        end else if (turn) begin
            t_q <= t_q == LAST ? {ND{1'b0}} : t_q + 1'b1;
            if (!wr_q && !hit && eq) begin
                hit  <= 1'b1;
                code <= t_q;
            end
        end
        // (a clear comes with the last chunk of SYNC, and the next record's
        // lookup may start at the same edge: on the cleared entries)
        if (rst) begin
            busy <= 1'b0;
            wr_q <= 1'b0;
        end else begin
            busy <= busy_d;
            if (look || clr)
                wr_q <= 1'b0;
            else if (turn && t_q == LAST)
                // a miss turns once more to store the key
                wr_q <= !wr_q && !hit && !eq;
        end
        if (rst || clr)
            wp_q <= {ND{1'b0}};
        else if (turn && t_q == LAST && wr_q)
            wp_q <= wp_q == LAST ? {ND{1'b0}} : wp_q + 1'b1;
    end

`ifdef TRC_ASSERT
    always @(posedge clk) begin
        if (!rst)
            assert (!(look && busy) && !(clr && busy))
                else $error("%m: lookup or clear while busy");
    end
`endif

endmodule

`resetall
