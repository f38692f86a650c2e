/**
 * Compression of Connect calls between Petri's own processes (the gateway's clients).
 *
 * connect-node clients ask for gzip and brotli by default, and servers then compress every
 * response over 1 KB. Between processes on one host or in one zone that spends CPU on both
 * sides (about a tenth of a GET) to save bandwidth nobody pays for, so calls go uncompressed
 * unless PETRI_RPC_COMPRESSION=gzip (links where bandwidth costs more than CPU, e.g. across
 * zones). Servers keep accepting gzip: they only compress when a client asks, so the client's
 * setting alone decides, and no service needs its own setting.
 */
import { z } from "zod";
import { compressionGzip } from "@connectrpc/connect-node";
import type { ConnectTransportOptions } from "@connectrpc/connect-node";

export const RPC_COMPRESSIONS = ["none", "gzip"] as const;
export type RpcCompression = (typeof RPC_COMPRESSIONS)[number];

/** PETRI_RPC_COMPRESSION in a config schema: "none" (default) or "gzip". */
export const rpcCompressionSchema = z.enum(RPC_COMPRESSIONS).default("none");

/** The transport options that make a Connect client compress (or not) as `setting` says. */
export function rpcClientCompression(
  setting: RpcCompression,
): Pick<ConnectTransportOptions, "acceptCompression" | "sendCompression"> {
  if (setting === "gzip") return { acceptCompression: [compressionGzip], sendCompression: compressionGzip };
  // An empty list: the client announces no encoding, so the server answers uncompressed.
  return { acceptCompression: [] };
}
