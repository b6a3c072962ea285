import { lazy, useState, type ComponentType } from "react";

/**
 * A code-split component that renders at once when its chunk is already there (a deep link
 * preloads it while the session loads). React.lazy alone suspends on first render even then,
 * and React holds a revealed Suspense boundary back for up to 300 ms: a wait before the page's
 * reads even start. Chosen once per mount, so a page never remounts when its chunk arrives.
 */
export function preloadable<M>(load: () => Promise<M>, name: keyof M) {
  let loaded: ComponentType | undefined;
  let pending: Promise<M> | undefined;
  const preload = () =>
    (pending ??= load().then(
      (m) => ((loaded = m[name] as ComponentType), m),
      (e) => {
        pending = undefined; // a failed chunk fetch is tried again on the next visit
        throw e;
      },
    ));
  const Lazy = lazy(async () => ({ default: (await preload())[name] as ComponentType }));
  function Preloadable() {
    const [Ready] = useState(() => loaded);
    return Ready ? <Ready /> : <Lazy />;
  }
  return { component: Preloadable, preload };
}
