import { useCallback, useEffect, useRef, useState } from "react";

// The proof-of-work check the booking and donation forms show only when the server asks for it
// (a payment start answered "challenge-required" during a spike of payments, decision 026). It is
// ALTCHA's widget, loaded from this site only when needed: its own stylesheet and worker files, no
// third-party request, no cookie, no tracking. The visitor's browser works for a moment; the
// answer goes with the next start.

type Solver = { resolve: (payload: string) => void; reject: (error: Error) => void };

async function loadWidget() {
  const [, , worker] = await Promise.all([
    import("altcha/external"),
    import("altcha/altcha.css"),
    import("altcha/workers/pbkdf2?worker"),
  ]);
  const globals = globalThis as unknown as { $altcha: { algorithms: Map<string, () => Worker> } };
  globals.$altcha.algorithms.set("PBKDF2/SHA-256", () => new worker.default());
}

/**
 * `solve()` shows the check and resolves with its answer once the browser has done the work;
 * `element` is where it shows (nothing until it is needed).
 */
export function useProofOfWork() {
  const [needed, setNeeded] = useState(false);
  const solver = useRef<Solver | undefined>(undefined);
  const container = useRef<HTMLDivElement>(null);

  const solve = useCallback(
    () =>
      new Promise<string>((resolve, reject) => {
        solver.current = { resolve, reject };
        setNeeded(true);
      }),
    [],
  );

  useEffect(() => {
    if (!needed || !container.current) return;
    const host = container.current;
    let cancelled = false;
    void (async () => {
      try {
        await loadWidget();
        if (cancelled) return;
        const widget = document.createElement("altcha-widget");
        widget.setAttribute("challenge", "/api/challenge");
        widget.setAttribute("auto", "off");
        widget.setAttribute("configuration", JSON.stringify({ hideLogo: true, hideFooter: true }));
        host.replaceChildren(widget);
        // The element gets its methods once it has been upgraded, a frame or so after it is added.
        for (let frame = 0; frame < 100 && typeof widget.verify !== "function"; frame++) {
          await new Promise((resolve) => requestAnimationFrame(resolve));
        }
        const result = await widget.verify();
        if (!result?.payload) throw new Error("The check could not be finished.");
        solver.current?.resolve(result.payload);
      } catch (error) {
        solver.current?.reject(error as Error);
      } finally {
        solver.current = undefined;
        if (!cancelled) setNeeded(false);
      }
    })();
    return () => {
      cancelled = true;
    };
  }, [needed]);

  const element = needed ? (
    <div className="proof-of-work" role="status">
      <p>We are seeing unusually many payments right now, so your browser is doing a moment&apos;s check first.</p>
      <div ref={container} />
    </div>
  ) : null;
  return { solve, element };
}
