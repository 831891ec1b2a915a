// trc_format.vh: the stream format's constants for the RTL (docs/format.md is
// the normative text), and the parameter check that every module uses.
// Include it after `default_nettype none; the include path is rtl/.
`ifndef TRC_FORMAT_VH
`define TRC_FORMAT_VH

// The action of a failed immediate assertion: the simulators report it by
// name; formal tools (yosys read_verilog -formal, which has no action
// blocks) take the bare assert. `assert (c) `TRC_ELSE("%m: what failed");`
`ifdef FORMAL
`define TRC_ELSE(msg)
`else
`define TRC_ELSE(msg) else $error(msg)
`endif

// Width of a raw record's info field: a function record's exit flag and id,
// or an OS record's type and value, whichever is wider.
`define TRC_INFO_W(fid_w, type_w, val_w) \
    ((1 + (fid_w) > (type_w) + (val_w)) ? 1 + (fid_w) : (type_w) + (val_w))

// The longest record of the stack modes (docs/format.md 4.7, 4.8; mode 1
// or 2), with TSW = NZ + NT - 1 the timestamp code: stack mode's NP code (9)
// and delta rank code (10) and class (2), or stack mode 2's step 1 NPX (12),
// NP and class (12) and rank code (11), over an escaped delta and the
// longest dictionary fields. trc_enc sizes its packer from it.
`define TRC_TSW(nt) ($clog2((nt) + 1) + (nt) - 1)
`define TRC_MAX(a, b) ((a) > (b) ? (a) : (b))
`define TRC_STK_FULL(mode, nt, fid_w, type_w, val_w, nd_f, nd_t, nd_v) \
    ((mode) == 2 ? `TRC_MAX(35 + `TRC_TSW(nt) + (nd_f) + 1 + (fid_w), \
                            24 + `TRC_TSW(nt) + (nd_t) + (type_w) + (nd_v) + (val_w)) \
                 : 21 + `TRC_TSW(nt) + `TRC_MAX((nd_f) + 1 + (fid_w), \
                                                (nd_t) + (type_w) + (nd_v) + (val_w)))

// The four reserved OS info types at the top of the type range, each exactly
// tw bits wide (TYPE_W >= 3, so every replication count is at least 1).
`define TRC_T_TIME_EXT(tw) {(tw){1'b1}}
`define TRC_T_END(tw)      {{((tw)-1){1'b1}}, 1'b0}
`define TRC_T_SYNC(tw)     {{((tw)-2){1'b1}}, 2'b01}
`define TRC_T_LOST(tw)     {{((tw)-2){1'b1}}, 2'b00}

// Several CPUs (docs/format.md 4.9): the CPU switch code is the number
// (NT+1) * 2^E + cpu in NZ + E bits, E the fewest extra bits with
// (2^NZ - 1 - NT) * 2^E >= CPUs (the z values above NT, times 2^E); nb <= 8.
`define TRC_SW_EXT(nz, nt, nb) \
    ((((1 << (nz)) - 1 - (nt)) >= (nb)) ? 0 : \
     (2 * ((1 << (nz)) - 1 - (nt)) >= (nb)) ? 1 : \
     (4 * ((1 << (nz)) - 1 - (nt)) >= (nb)) ? 2 : 3)

// A parameter rule, used inside a generate region: when cond is false, a
// message where the tool can print one ($error at elaboration; Icarus has
// none), then an instance of a module that does not exist (stop, named after
// the parameter), which stops Verilator, Icarus and Yosys alike. msg names
// the module, since Verilator cannot print %m at elaboration.
`ifdef __ICARUS__
`define TRC_PARAM_MSG(msg)
`else
`define TRC_PARAM_MSG(msg) $error(msg);
`endif
`define TRC_PARAM_CHECK(cond, label, stop, msg) \
    if (!(cond)) begin : label \
        `TRC_PARAM_MSG(msg) \
        stop u_stop (); \
    end

`endif
