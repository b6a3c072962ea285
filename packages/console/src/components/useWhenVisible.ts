import { useEffect, useRef, useState } from "react";

/**
 * True once the element came near the viewport (and from then on): work below the fold, like
 * the overview's pictures, waits until someone scrolls to it instead of slowing the first paint.
 */
export function useWhenVisible<T extends Element>() {
  const ref = useRef<T>(null);
  const [seen, setSeen] = useState(false);
  useEffect(() => {
    const el = ref.current;
    if (!el || seen) return;
    if (typeof IntersectionObserver === "undefined") return setSeen(true);
    const io = new IntersectionObserver((entries) => entries.some((e) => e.isIntersecting) && setSeen(true), {
      rootMargin: "200px",
    });
    io.observe(el);
    return () => io.disconnect();
  }); // Every render: the element may mount late (after its page's data).
  return [seen, ref] as const;
}
