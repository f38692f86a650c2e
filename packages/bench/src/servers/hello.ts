// Baseline B1: the least an HTTP request can cost in this stack (Hono on @hono/node-server).
import { serve } from "@hono/node-server";
import { Hono } from "hono";

const app = new Hono();
app.get("/", (c) => c.text("hello"));
serve({ fetch: app.fetch, port: Number(process.env.PORT), hostname: "127.0.0.1" });
