import cluster from "node:cluster";
import client from "prom-client";

// The metrics of several processes (SITE_PROCESSES, server/processes.ts): the process a scraper
// reaches asks the first process, which gathers every process's figures with prom-client's
// AggregatorRegistry and answers with them all (server/metrics.ts).

const metricsRequest = "kilele:metrics-request";
const metricsAnswer = "kilele:metrics-answer";
let nextRequest = 0;

/** One of several processes: asks the first for every process's figures, gathered. */
export function askFirstProcess(): Promise<string> {
  const id = nextRequest++;
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      process.off("message", onMessage);
      reject(new Error("the first process did not answer within 10 seconds"));
    }, 10_000);
    function onMessage(message: unknown) {
      const answer = message as { type?: string; id?: number; text?: string; error?: string };
      if (answer?.type !== metricsAnswer || answer.id !== id) return;
      clearTimeout(timer);
      process.off("message", onMessage);
      if (answer.error !== undefined) reject(new Error(answer.error));
      else resolve(answer.text ?? "");
    }
    process.on("message", onMessage);
    process.send!({ type: metricsRequest, id });
  });
}

/** The first process of several (server/processes.ts): gathers the processes' figures when one asks. */
export function gatherMetricsForProcesses() {
  const aggregator = new client.AggregatorRegistry();
  cluster.on("message", (worker, message: { type?: string; id?: number }) => {
    if (message?.type !== metricsRequest) return;
    aggregator.clusterMetrics().then(
      (text) => worker.send({ type: metricsAnswer, id: message.id, text }),
      (error: Error) => worker.send({ type: metricsAnswer, id: message.id, error: error.message }),
    );
  });
}
