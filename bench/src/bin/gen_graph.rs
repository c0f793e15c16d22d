//! Writes the benchmark's synthetic DiT graph with N blocks to stdout (for timing whole
//! pipelines from the command line, e.g. `dit-opt --fuse-all`).

fn main() {
    let blocks = std::env::args()
        .nth(1)
        .and_then(|a| a.parse::<usize>().ok())
        .filter(|b| *b > 0);
    let Some(blocks) = blocks else {
        eprintln!("usage: gen_graph BLOCKS (a positive integer)");
        std::process::exit(1);
    };
    print!("{}", dit_bench::generate(blocks).text);
}
