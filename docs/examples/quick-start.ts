import { createThreadline, isThreadlineError } from 'threadline';

const controller = new AbortController();
const tl = await createThreadline({
  name: 'handbook', // IndexedDB namespace: two names never share data
  // embedder: { model: 'minishlab/potion-base-8M' },  // default: the offline model that ships with threadline
  llm: {}, // the default WebLLM pair when WebGPU is there; otherwise rules + extractive answers
  onProgress: (p) => console.log(p.phase, p),
  signal: controller.signal, // stops opening (a model download, a rebuild) with ABORTED
});

await tl.add([{
  id: 'refunds', title: 'Refund policy', url: '/refunds', format: 'markdown',
  text: '# Refunds\n## Window\nReturns are accepted within 30 days of delivery.\n## Damaged items\nItems damaged on arrival are refunded in full, shipping included.',
}], { signal: controller.signal });

const chat = await tl.chat({ sessionId: 'support-1' }); // resumes the stored session when it exists
try {
  for (const question of ['How long is the refund window?', 'what about damaged items?']) {
    for await (const event of chat.ask(question, { signal: controller.signal })) {
      if (event.type === 'condensed') console.log(`${event.method}: ${event.question} (${event.reason})`);
      if (event.type === 'sources') console.log(event.chunks.map((c) => c.title));
      if (event.type === 'token') console.log(event.text);
      if (event.type === 'done') console.log(`answer (${event.mode}):`, event.answer, event.citations, event.timings);
    }
  }
} catch (error) {
  if (isThreadlineError(error, 'ABORTED')) console.log('stopped');
  else throw error;
}
await tl.dispose();
