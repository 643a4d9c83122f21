#pragma once
// Human-readable numbers for messages and tables.

#include <cstdint>
#include <string>
#include <string_view>

namespace tl {

std::string format_bytes(double bytes);            // "1.50 GiB"
std::string format_milliseconds(double ms);        // "412 µs", "3.21 ms", "1.20 s"
std::string format_count(std::uint64_t n);         // "16,777,216"; 2^64 - 1: "2^64 or more"
std::string format_power_of_two(std::uint64_t n);  // "2^24" when n is one, else format_count

// Characters a terminal shows for UTF-8 `text` (code points, not bytes), to pad "×" and "→" right.
std::size_t display_width(std::string_view text);
// `text` as one CSV field: quoted, with inner quotes doubled, when it holds a comma, quote or line
// break (RFC 4180); as it is otherwise.
std::string csv_field(std::string_view text);
// `text` as one printable line, for a reason printed after "threadlab: " or in a status line: a
// newline, carriage return or tab becomes \n, \r or \t, and any other control byte (a terminal
// escape, NUL, DEL) \xHH, so that an echoed argument or a quoted file's bytes can neither break
// the line a script reads nor drive the terminal. Bytes from 0x80 on (UTF-8) are kept.
std::string one_line(std::string_view text);

}  // namespace tl
