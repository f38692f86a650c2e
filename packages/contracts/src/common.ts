// Barrel for petri.common.v1, written by proto/write-barrels.mjs after `npm run generate`.
export * from "./gen/petri/common/v1/dead_letters_pb.js";
export * from "./gen/petri/common/v1/error_detail_pb.js";
export * from "./gen/petri/common/v1/event_envelope_pb.js";
export * from "./gen/petri/common/v1/json_message_pb.js";
export * from "./gen/petri/common/v1/money_pb.js";
export * from "./gen/petri/common/v1/page_pb.js";
export * from "./gen/petri/common/v1/rest_list_pb.js";
export * from "./gen/petri/common/v1/rest_value_pb.js";
