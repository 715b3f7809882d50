//! Privatise a sentence with the default model and print the guarantee.
//!
//!     cargo run --example privatize -- "The president spoke to the nation."
use dxtext::{Context, Geometry, Model, Options};

fn main() -> Result<(), dxtext::Error> {
    let text = std::env::args().nth(1).unwrap_or_else(|| "The president spoke to the nation about the war.".into());
    let model = Model::open_default(Geometry::Euclidean)?; // share this between threads
    let mut context = Context::new(&model)?; // one per thread
    let (private, report) = context.privatize_text_report(&text, &Options::new(20.0))?;
    println!("{}", private);
    println!("{}", report.to_json()?);

    match context.privatize_text(&text, &Options::new(-1.0)) {
        Err(e) => eprintln!("as expected: {} ({:?})", e, e.kind()),
        Ok(_) => unreachable!("a negative epsilon is refused"),
    }
    Ok(())
}
