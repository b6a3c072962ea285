import { useId, useRef, type ReactNode, type KeyboardEvent } from "react";
import { useSearchParams } from "react-router";
import { nextTabIndex, tabFromUrl } from "./tabKeys";

export interface Tab<T extends string> {
  id: T;
  label: string;
  content: ReactNode;
}

/**
 * Tabs whose chosen tab is the URL's `?tab=` (a link opens it, reload keeps it; choosing one
 * replaces the history entry rather than adding one). The first tab needs no parameter. Every
 * panel stays mounted and only the chosen one shows, so a half-typed form keeps its values when
 * the operator looks at another tab. Keys as the WAI-ARIA tabs pattern: arrows, Home, End.
 */
export function Tabs<T extends string>({
  label,
  tabs,
  param = "tab",
}: {
  label: string;
  tabs: Tab<T>[];
  param?: string;
}) {
  const [params, setParams] = useSearchParams();
  const ids = tabs.map((t) => t.id);
  const chosen = tabFromUrl(params.get(param), ids);
  const base = useId();
  const refs = useRef<(HTMLButtonElement | null)[]>([]);
  const choose = (id: T) =>
    setParams(
      (p) => {
        const next = new URLSearchParams(p);
        if (id === ids[0]) next.delete(param);
        else next.set(param, id);
        return next;
      },
      { replace: true },
    );
  const onKeyDown = (e: KeyboardEvent) => {
    const i = nextTabIndex(e.key, ids.indexOf(chosen), ids.length);
    if (i === null) return;
    e.preventDefault();
    choose(ids[i]!);
    refs.current[i]?.focus();
  };
  return (
    <div className="tabset">
      <div role="tablist" aria-label={label} className="tablist" onKeyDown={onKeyDown}>
        {tabs.map((t, i) => (
          <button
            key={t.id}
            ref={(el) => {
              refs.current[i] = el;
            }}
            type="button"
            role="tab"
            id={`${base}-tab-${t.id}`}
            aria-selected={t.id === chosen}
            aria-controls={`${base}-panel-${t.id}`}
            tabIndex={t.id === chosen ? 0 : -1}
            data-tab={t.id}
            onClick={() => choose(t.id)}
          >
            {t.label}
          </button>
        ))}
      </div>
      {tabs.map((t) => (
        <div
          key={t.id}
          role="tabpanel"
          id={`${base}-panel-${t.id}`}
          aria-labelledby={`${base}-tab-${t.id}`}
          tabIndex={0}
          hidden={t.id !== chosen}
          data-tab-panel={t.id}
        >
          {t.content}
        </div>
      ))}
    </div>
  );
}
