// SPDX-License-Identifier: Apache-2.0
//! Privatise a sentence with the default model and print the guarantee.
//!
//!     cargo run --example privatize -- "The president spoke to the nation."
use dxtext::{Context, Geometry, Model, Options, Preset};

fn main() -> Result<(), dxtext::Error> {
    let text = std::env::args().nth(1).unwrap_or_else(|| "The president spoke to the nation about the war.".into());
    let model = Model::open_default(Geometry::Euclidean)?; // share this between threads
    let mut context = Context::new(&model)?; // one per thread
    // A preset sets the mechanism, epsilon, release shape, output vocabulary and
    // policies at once: Readable for text a person will read. The release
    // record is safe to send with the text; no diagnostics asked for.
    let (private, record) = context.privatize_text_record(&text, &Options::from_preset(Preset::Readable), None)?;
    println!("{}", private);
    println!("{}", record.to_json()?);

    match context.privatize_text(&text, &Options::new(-1.0)) {
        Err(e) => eprintln!("as expected: {} ({:?})", e, e.kind()),
        Ok(_) => unreachable!("a negative epsilon is refused"),
    }
    Ok(())
}
