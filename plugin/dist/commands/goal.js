module.exports = require('./_rest.js')["goal"];
