/**
 * The index-health drift the demo shows, one case of each, written through the real Qdrant client (and the stand-in's
 * ANN switch) after the sample book is indexed:
 * - a stale chunk: the Gazebo page as after a re-index that made it one chunk shorter without deleting the old last
 *   chunk: that chunk keeps the page_hash and page_version of the earlier, longer version, and the page's other
 *   chunks declare one chunk fewer (so the current version is whole, no chunk is missing, and only the page's two
 *   versions give it away);
 * - a stale page: the URDF page's points say they were indexed on 2025-12-01 from a text last updated that day, before
 *   the page's date-only sitemap lastmod (2025-12-20), as an edit the index has not seen;
 * - a second model: one chunk of the Isaac page says it was embedded by embed-english-v2.0;
 * - ANN recall: the off-topic question's best exact hit is unreachable by approximate search;
 * - embedding drift: the orphan chunks (start-sandbox.ts) carry vectors that are not their text's, and one of them
 *   has an id the canary samples;
 * - a filter violation: the payload index lets a point outside the section through to filtered searches naming the
 *   section "Handling failure" (only the suite's `failure-handling-section` does). That section holds fewer chunks
 *   than the query's top_k, so the leaked point is an extra hit: the query's recall against exact search stays whole.
 */
import { QdrantClient } from '@qdrant/js-client-rest';
import { pageVersionKey, parsePageVersion } from '../functions/core/book/payload.ts';
import { embedText } from './cohere/embed-text.ts';
import type { QdrantStandIn } from './qdrant/index.ts';

const BASE = 'https://book.example.com/docs';
const DEMO_STALE_CHUNK_PAGE = `${BASE}/module-2-digital-twin/ch1-gazebo-physics`;
const DEMO_STALE_PAGE = `${BASE}/module-1-ros2/ch3-urdf-for-humanoids`;
const DEMO_SECOND_MODEL_PAGE = `${BASE}/module-3-nvidia-isaac/ch1-isaac-sim-synthetic-data`;
const EARLIER_HASH = '0'.repeat(64);
const OFF_TOPIC_QUESTION = 'How long should sourdough bread proof before baking?';
/** The one filtered search of the demo suite whose filter the stand-in's broken payload index leaks. */
export const DEMO_LEAKY_FILTER = { key: 'heading_hierarchy', value: 'Handling failure' };

export async function seedIndexHealthDrift(qdrant: QdrantStandIn, collection: string): Promise<void> {
  const client = new QdrantClient({ url: qdrant.url, checkCompatibility: false });
  const pageFilter = (url: string) => ({ must: [{ key: 'source_url', match: { value: url } }] });
  const first = async (url: string) => {
    const { points } = await client.scroll(collection, { limit: 1, filter: pageFilter(url), with_payload: false });
    const point = points[0];
    if (point === undefined) throw new Error(`the sample book has no points for ${url}`);
    return point.id;
  };
  const gazebo = await client.scroll(collection, {
    limit: 1000,
    filter: pageFilter(DEMO_STALE_CHUNK_PAGE),
    with_payload: ['chunk_index', 'page_hash'],
  });
  const byIndex = gazebo.points.toSorted((a, b) => Number(a.payload?.chunk_index) - Number(b.payload?.chunk_index));
  const last = byIndex.at(-1);
  if (last === undefined || byIndex.length < 2)
    throw new Error(`the sample book has too few points for ${DEMO_STALE_CHUNK_PAGE}`);
  const currentHash = String(last.payload?.page_hash);
  await client.setPayload(collection, {
    wait: true,
    payload: { page_version: pageVersionKey(DEMO_STALE_CHUNK_PAGE, currentHash, byIndex.length - 1) },
    points: byIndex.slice(0, -1).map((p) => p.id),
  });
  await client.setPayload(collection, {
    wait: true,
    payload: {
      page_hash: EARLIER_HASH,
      page_version: pageVersionKey(DEMO_STALE_CHUNK_PAGE, EARLIER_HASH, byIndex.length),
    },
    points: [last.id],
  });
  // A date-only lastmod is compared with the indexed text's day (page_version), so both say when the index was made.
  const urdf = await client.scroll(collection, {
    limit: 1,
    filter: pageFilter(DEMO_STALE_PAGE),
    with_payload: ['page_version'],
  });
  const urdfVersion = parsePageVersion(String(urdf.points[0]?.payload?.page_version));
  if (urdfVersion === undefined) throw new Error(`the sample book has no page_version for ${DEMO_STALE_PAGE}`);
  await client.setPayload(collection, {
    wait: true,
    payload: {
      indexed_at: '2025-12-01T00:00:00.000Z',
      page_version: pageVersionKey(DEMO_STALE_PAGE, urdfVersion.pageHash, urdfVersion.chunks, '2025-12-01'),
    },
    filter: pageFilter(DEMO_STALE_PAGE),
  });
  await client.setPayload(collection, {
    wait: true,
    payload: { model_version: 'embed-english-v2.0' },
    points: [await first(DEMO_SECOND_MODEL_PAGE)],
  });
  const info = await client.getCollection(collection);
  const size = (info.config.params.vectors as { size: number }).size;
  const best = await client.query(collection, {
    query: embedText(OFF_TOPIC_QUESTION, size),
    limit: 1,
    params: { exact: true },
  });
  qdrant.makeUnreachable(best.points.map((p) => p.id));
  qdrant.leakFilters(DEMO_LEAKY_FILTER);
}
