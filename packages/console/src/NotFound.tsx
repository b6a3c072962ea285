import { Link } from "react-router";

/** A place the console does not have, or a campaign or program that does not exist. */
export function NotFound({ what = "This page" }: { what?: string }) {
  return (
    <section className="card not-found" aria-labelledby="not-found-title">
      <h2 id="not-found-title">Not found</h2>
      <p>{what} does not exist here. Check the address, or start again from your program.</p>
      <p>
        <Link to="/">Go to the console's start</Link>
      </p>
    </section>
  );
}
