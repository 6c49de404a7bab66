import { createThreadline, isThreadlineError } from 'threadline';

const tl = await createThreadline({
  name: 'handbook', // IndexedDB namespace: two names never share data
  // embedder: { model: 'Xenova/all-MiniLM-L6-v2' },  // default: the offline model, served by your site
  llm: {}, // the default WebLLM pair when WebGPU is there; otherwise rules + extractive answers
  onProgress: (p) => console.log(p.phase, p),
});

const controller = new AbortController();
await tl.add([{ id: 'refunds', title: 'Refund policy', url: '/refunds', text: '# Refunds\n## Window\nReturns within 30 days.', format: 'markdown' }], {
  signal: controller.signal,
});

const chat = await tl.chat({ sessionId: 'support-1' }); // resumes the stored session when it exists
try {
  for await (const event of chat.ask('what about damaged items?', { signal: controller.signal })) {
    if (event.type === 'condensed') console.log(`${event.method}: ${event.question} (${event.reason})`);
    if (event.type === 'sources') console.log(event.chunks.map((c) => c.title));
    if (event.type === 'token') console.log(event.text);
    if (event.type === 'done') console.log(event.answer, event.citations, event.timings);
  }
} catch (error) {
  if (isThreadlineError(error, 'ABORTED')) console.log('stopped');
  else throw error;
}
await tl.dispose();
