// Baseline B2: the least a "read one experiment" request can cost: Hono plus one primary-key
// select of a ~3.5 KB row through a pg pool, the row returned as JSON.
import { serve } from "@hono/node-server";
import { Hono } from "hono";
import pg from "pg";

const pool = new pg.Pool({
  connectionString: process.env.DATABASE_URL,
  max: 10,
  application_name: "petri-bench-b2",
  // Kept open between rounds, as under steady traffic: pg closes idle clients after 10 s by default.
  idleTimeoutMillis: 0,
});
const app = new Hono();
app.get("/rows/:id", async (c) => {
  const { rows } = await pool.query("select id, body from bench_rows where id = $1", [c.req.param("id")]);
  return rows[0]
    ? c.json(rows[0])
    : c.json({ error: { code: "not_found", message: "no such row", details: {} } }, 404);
});
serve({ fetch: app.fetch, port: Number(process.env.PORT), hostname: "127.0.0.1" });
