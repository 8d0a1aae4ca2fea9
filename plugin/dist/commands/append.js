module.exports = require('./_rest.js')["append"];
