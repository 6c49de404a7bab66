/**
 * Writes the offline model's ONNX graph with protobufjs and a hand-written
 * subset of onnx.proto (field numbers copied from the ONNX spec), so the
 * project needs no Python and no generated code to produce a real model.
 *
 * Graph (opset 13):
 *   rows   = Gather(embeddings[fp16 V×D], input_ids[int64 B×S])   → fp16 B×S×D
 *   rowsF  = Cast(rows, to=FLOAT)                                   → f32  B×S×D
 *   mask   = Unsqueeze(Cast(attention_mask, FLOAT), axes=[-1])      → f32  B×S×1
 *   last_hidden_state = Mul(rowsF, mask)                            → f32  B×S×D
 * transformers.js then mean-pools over the mask and normalizes, exactly as
 * it does for a BERT sentence encoder.
 */
import protobuf from 'protobufjs';

export const ONNX_SUBSET = `
syntax = "proto3";
package onnx;
message OperatorSetIdProto { string domain = 1; int64 version = 2; }
message TensorShapeProto {
  message Dimension { oneof value { int64 dim_value = 1; string dim_param = 2; } }
  repeated Dimension dim = 1;
}
message TypeProto {
  message Tensor { int32 elem_type = 1; TensorShapeProto shape = 2; }
  oneof value { Tensor tensor_type = 1; }
}
message ValueInfoProto { string name = 1; TypeProto type = 2; }
message TensorProto {
  repeated int64 dims = 1;
  int32 data_type = 2;
  string name = 8;
  bytes raw_data = 9;
}
message AttributeProto {
  string name = 1;
  float f = 2;
  int64 i = 3;
  repeated int64 ints = 8;
  int32 type = 20;
}
message NodeProto {
  repeated string input = 1;
  repeated string output = 2;
  string name = 3;
  string op_type = 4;
  repeated AttributeProto attribute = 5;
}
message GraphProto {
  repeated NodeProto node = 1;
  string name = 2;
  repeated TensorProto initializer = 5;
  string doc_string = 10;
  repeated ValueInfoProto input = 11;
  repeated ValueInfoProto output = 12;
}
message ModelProto {
  int64 ir_version = 1;
  string producer_name = 2;
  string producer_version = 3;
  string doc_string = 6;
  GraphProto graph = 7;
  repeated OperatorSetIdProto opset_import = 8;
}
`;

/** ONNX TensorProto.DataType values used here. */
export const DT = { FLOAT: 1, UINT8: 2, INT64: 7, FLOAT16: 10 } as const;
/** ONNX AttributeProto.AttributeType.INT */
const ATTR_INT = 2;
/** IR version 7 is the one that goes with opset 13. */
const IR_VERSION = 7;

export interface StaticEmbeddingGraph {
  /** Row-major [vocabSize × dims] table already converted to IEEE half floats. */
  embeddingsF16: Uint16Array;
  vocabSize: number;
  dims: number;
  docString: string;
}

export function tensorInput(name: string, elemType: number, dims: (string | number)[]) {
  return {
    name,
    type: {
      tensorType: {
        elemType,
        shape: { dim: dims.map((d) => (typeof d === 'number' ? { dimValue: d } : { dimParam: d })) },
      },
    },
  };
}

/** Serializes the static-embedding graph to ONNX protobuf bytes. */
export function writeStaticEmbeddingOnnx(g: StaticEmbeddingGraph): Uint8Array {
  if (g.embeddingsF16.length !== g.vocabSize * g.dims) {
    throw new Error(`embedding table has ${g.embeddingsF16.length} values, expected ${g.vocabSize}×${g.dims}`);
  }
  const root = protobuf.parse(ONNX_SUBSET).root;
  const Model = root.lookupType('onnx.ModelProto');
  const table = g.embeddingsF16;
  const axes = new BigInt64Array([-1n]);
  const model = {
    irVersion: IR_VERSION,
    producerName: 'threadline',
    producerVersion: '1',
    docString: g.docString,
    opsetImport: [{ domain: '', version: 13 }],
    graph: {
      name: 'static_embedding',
      docString: g.docString,
      initializer: [
        {
          name: 'embeddings',
          dims: [g.vocabSize, g.dims],
          dataType: DT.FLOAT16,
          rawData: new Uint8Array(table.buffer, table.byteOffset, table.byteLength),
        },
        { name: 'unsqueeze_axes', dims: [1], dataType: DT.INT64, rawData: new Uint8Array(axes.buffer) },
      ],
      node: [
        { opType: 'Gather', name: 'lookup', input: ['embeddings', 'input_ids'], output: ['rows_f16'] },
        {
          opType: 'Cast', name: 'rows_to_f32', input: ['rows_f16'], output: ['rows'],
          attribute: [{ name: 'to', type: ATTR_INT, i: DT.FLOAT }],
        },
        {
          opType: 'Cast', name: 'mask_to_f32', input: ['attention_mask'], output: ['mask_f32'],
          attribute: [{ name: 'to', type: ATTR_INT, i: DT.FLOAT }],
        },
        { opType: 'Unsqueeze', name: 'mask_expand', input: ['mask_f32', 'unsqueeze_axes'], output: ['mask'] },
        { opType: 'Mul', name: 'apply_mask', input: ['rows', 'mask'], output: ['last_hidden_state'] },
      ],
      input: [
        tensorInput('input_ids', DT.INT64, ['batch_size', 'sequence_length']),
        tensorInput('attention_mask', DT.INT64, ['batch_size', 'sequence_length']),
      ],
      output: [tensorInput('last_hidden_state', DT.FLOAT, ['batch_size', 'sequence_length', g.dims])],
    },
  };
  const problem = Model.verify(model);
  if (problem) throw new Error(`invalid ONNX model: ${problem}`);
  return Model.encode(Model.fromObject(model)).finish();
}

/** Round-to-nearest-even conversion of one float32 to IEEE 754 half precision bits. */
export function toFloat16Bits(value: number): number {
  const f32 = new Float32Array([value]);
  const x = new Uint32Array(f32.buffer)[0] ?? 0;
  const sign = (x >>> 16) & 0x8000;
  const exp = (x >>> 23) & 0xff;
  const mant = x & 0x7fffff;
  if (exp === 0xff) return sign | 0x7c00 | (mant ? 0x200 : 0);
  const e = exp - 127 + 15;
  if (e >= 0x1f) return sign | 0x7c00;
  // Subnormal half: |value| < 2^-14, so value·2^24 < 1024 and rounding it gives the bits directly
  // (1024 rounds up to the smallest normal, whose bit pattern is also 1024).
  if (e <= 0) return sign | Math.round(Math.abs(value) * 2 ** 24);
  let half = sign | (e << 10) | (mant >>> 13);
  const rest = mant & 0x1fff;
  if (rest > 0x1000 || (rest === 0x1000 && (half & 1))) half += 1;
  return half;
}
