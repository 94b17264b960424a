//! Prints the C header cbindgen wrote from this crate's source (`make
//! c-header` writes it to include/dice_tables.h).

fn main() {
    print!("{}", dice_tables::HEADER);
}
